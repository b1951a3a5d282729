#!/usr/bin/env python3
"""Makes a capture folder holding one huge MLIR pass dump, as a kernel with
a big tile makes (issue 11: a 4096x128 tile gave one 2.1 GB dump, the
unoptimized LLVM-dialect module right after ConvertTritonGPUToLLVM, with
lines up to 32 KB).

It copies a shared capture (its final stages, cache entry and stderr) and
writes its mlir_passes.txt again with the dump printed right after
ConvertTritonGPUToLLVM blown up: the ops of its function are repeated with
fresh SSA names (numbered on from the last one, as the printer numbers a
bigger function), and each LLVM struct type is widened to about
--line-bytes, as the struct of a thread's share of a big tile is.  Every
other dump is left as it is, so the big dump's pass turns a small TTGIR
module into it and the next pass (Canonicalizer) folds most of it away:
both diffs rewrite the whole big module.

Usage: bench/make_big_capture.py SEED_CAPTURE OUT_DIR [--mb 2100]
                                 [--line-bytes 32768]
  SEED_CAPTURE  a capture folder with mlir_passes.txt (the shared vector_add,
                unpacked by the build into BUILD/tests/dumps/vector_add)
  OUT_DIR       made (must not exist); holds the new capture
  --mb          size of the big dump in MB (10^6 bytes)
  --line-bytes  about how long a line with a struct type gets

Prints the big dump's first line number, line count and bytes.
"""
import argparse
import os
import re
import shutil
import sys

HEADER = '// -----// IR Dump Before '
STRUCT = re.compile(r'!llvm\.struct<\(([^()<>]*)\)>')
DEF = re.compile(r'^\s*(%[A-Za-z0-9_.$-]+)\s*=')
NAME = re.compile(r'%[A-Za-z0-9_.$-]+')
NUMBERED = re.compile(r'^(%.*?)(\d+)$')


def dumps_of(lines):
    """(start, end) line index ranges of each dump, header included."""
    starts = [i for i, l in enumerate(lines) if l.startswith(HEADER)]
    return [(s, starts[k + 1] if k + 1 < len(starts) else len(lines))
            for k, s in enumerate(starts)]


def widen(line, line_bytes):
    """LINE with each homogeneous struct type widened to about LINE_BYTES
    (shared out among the types of the line)."""
    found = STRUCT.findall(line)
    if not found:
        return line
    share = max(64, line_bytes // len(found))

    def one(m):
        fields = [f.strip() for f in m.group(1).split(',')]
        if not fields or any(f != fields[0] for f in fields):
            return m.group(0)
        unit = fields[0] + ', '
        n = max(len(fields), share // len(unit))
        return '!llvm.struct<(' + ', '.join([fields[0]] * n) + ')>'
    return STRUCT.sub(one, line)


class Renamer:
    """Gives each replica's values fresh names, numbered on from the
    largest number the function uses, as the printer would."""

    def __init__(self, body):
        self.defined = set()
        top = 0
        for l in body:
            m = DEF.match(l)
            if m:
                self.defined.add(m.group(1))
                n = NUMBERED.match(m.group(1))
                if n:
                    top = max(top, int(n.group(2)))
        self.step = top + 1

    def line(self, l, r):
        if r == 0:
            return l
        base = r * self.step

        def one(m):
            name = m.group(0)
            if name not in self.defined:
                return name  # a function argument, a global
            n = NUMBERED.match(name)
            if n:
                return '%s%d' % (n.group(1), int(n.group(2)) + base)
            return '%s_%d' % (name, base)
        return NAME.sub(one, l)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('seed')
    ap.add_argument('out')
    ap.add_argument('--mb', type=float, default=2100.0)
    ap.add_argument('--line-bytes', type=int, default=32768)
    a = ap.parse_args()

    src = os.path.join(a.seed, 'mlir_passes.txt')
    with open(src, encoding='utf-8') as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    dumps = dumps_of(lines)
    conv = [k for k, (s, e) in enumerate(dumps)
            if lines[s].startswith(HEADER + 'ConvertTritonGPUToLLVM ')]
    if not conv or conv[0] + 1 >= len(dumps):
        print('%s: no dump after ConvertTritonGPUToLLVM' % src, file=sys.stderr)
        return 1
    s, e = dumps[conv[0] + 1]
    dump = lines[s:e]
    # The function's ops: after its "llvm.func" line, before "llvm.return".
    func = next(i for i, l in enumerate(dump) if l.lstrip().startswith('llvm.func '))
    ret = next(i for i in range(func, len(dump)) if dump[i].lstrip().startswith('llvm.return'))
    head, body, tail = dump[:func + 1], dump[func + 1:ret], dump[ret:]
    body = [widen(l, a.line_bytes) for l in body]
    head = [widen(l, a.line_bytes) for l in head]
    tail = [widen(l, a.line_bytes) for l in tail]
    ren = Renamer(body)
    replica = sum(len(l) + 1 for l in body)
    fixed = sum(len(l) + 1 for l in head + tail)
    target = int(a.mb * 1e6)
    n = max(1, -(-(target - fixed) // replica))

    os.makedirs(a.out)
    for name in os.listdir(a.seed):
        if name == 'mlir_passes.txt':
            continue
        p = os.path.join(a.seed, name)
        q = os.path.join(a.out, name)
        if os.path.isdir(p):
            shutil.copytree(p, q)
        else:
            shutil.copy(p, q)
    out = os.path.join(a.out, 'mlir_passes.txt')
    n_lines = 0
    size = 0
    with open(out, 'w', encoding='utf-8', newline='\n') as f:
        for l in lines[:s]:
            f.write(l + '\n')
        first = s + 1
        chunk = []
        for l in head:
            chunk.append(l + '\n')
        for r in range(n):
            for l in body:
                chunk.append(ren.line(l, r) + '\n')
            if len(chunk) > 4096:
                text = ''.join(chunk)
                size += len(text)
                f.write(text)
                chunk = []
        chunk.extend(l + '\n' for l in tail)
        text = ''.join(chunk)
        size += len(text)
        f.write(text)
        n_lines = len(head) + n * len(body) + len(tail)
        for l in lines[e:]:
            f.write(l + '\n')
    print('big dump: line %d, %d lines, %d bytes, %d copies of %d ops; %s'
          % (first, n_lines, size, n, len(body), out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
