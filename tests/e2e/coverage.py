#!/usr/bin/env python3
"""Coverage check: for every stage of every kernel of a capture, the set of
source lines the stage's instructions refer to, counted here independently
with a few regular expressions, must equal the set tkview binds (`tkview
refs`, which counts instructions only).

Line 0 is DWARF's "no source line" (`.loc 1 0 22` before compiler-made
code): it refers to no line and is not counted.

For MLIR, LLVM IR, PTX and AMDGCN every frame of every location counts
(inline callers included).  For SASS (and llvm-objdump's disassembly of an
AMD code object) the frames the text itself names count, which
tkview reports as innermost frames (it may add callers inferred from the PTX;
those are checked by the unit tests).  Later stages of a USE_IR_LOC capture
point at TTIR/TTGIR lines, which tkview rebinds to Python lines, so they are
skipped here (and say so); test_bind checks them.

Usage: coverage.py TKVIEW CAPTURE_DIR
Prints TAP.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from zstd_file import read_kernel_file  # noqa: E402  (a format-4 bundle's FILE.zst)


# Every reader below counts what INSTRUCTION lines refer to (directives and
# comments that carry a location, such as PTX ".loc" or SASS "//##" lines,
# are not code: tkview returns them where asked but never counts them).
# Each decides what an instruction is with its own few rules, read from the
# formats, not from tkview's code.

LOC_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
LOC_ALIAS_REF = re.compile(r'#(loc\d*)\b')
MLIR_HEADER = re.compile(r'^\s*(?:module\b|[\w.]+\.(?:func|module)\b|llvm\.mlir\.global\b)')


def mlir_refs(text):
    """Positions named by the locations of ops: an op's own line, and for
    an op with regions the `}` line that closes it (MLIR prints the op's
    location there), aliases followed to their literals."""
    lines = text.split('\n')
    aliases = {}
    for line in lines:
        m = re.match(r'^#(loc\d*) = (loc\(.*)$', line)
        if m:
            aliases[m.group(1)] = m.group(2)

    def is_op(line):
        t = line.strip()
        if not t or t.startswith(('//', '#', '^', '}', '{-#')):
            return False
        return not MLIR_HEADER.match(line)

    used = []  # (text of location-bearing lines that belong to ops)
    openers = []
    for line in lines:
        t = line.strip()
        if t.startswith('//') or re.match(r'^#\w+ = ', line):
            continue
        if is_op(line):
            used.append(line)
        closes, opens = t.startswith('}'), t.endswith('{')
        if closes:
            opener = openers.pop() if openers else None
            if opens:
                openers.append(opener)
            elif opener is not None and is_op(opener):
                used.append(line)
        elif opens:
            openers.append(line)
    refs, seen = set(), set()
    todo = []
    for line in used:
        refs |= {(m.group(1), int(m.group(2))) for m in LOC_LITERAL.finditer(line)}
        todo += LOC_ALIAS_REF.findall(line)
    while todo:
        a = todo.pop()
        if a in seen or a not in aliases:
            continue
        seen.add(a)
        body = aliases[a]
        refs |= {(m.group(1), int(m.group(2))) for m in LOC_LITERAL.finditer(body)}
        todo += LOC_ALIAS_REF.findall(body)
    return refs


def llvm_refs(text):
    """The DILocations instructions point at (`!dbg !N` on an indented line
    of a function body that is no debug record), and their inlinedAt
    callers up to a caller at line 0 (DWARF's "no line")."""
    nodes = {}
    for m in re.finditer(r'^!(\d+) = (?:distinct )?!(\w+)\((.*)\)$', text, re.M):
        nodes[m.group(1)] = (m.group(2), m.group(3))

    def field(body, name):
        m = re.search(r'\b' + name + r': (!?\d+|"(?:[^"\\]|\\.)*")', body)
        return m.group(1) if m else None

    def path_of(file_id):
        kind, body = nodes[file_id.lstrip('!')]
        name, d = field(body, 'filename')[1:-1], field(body, 'directory')
        d = d[1:-1] if d else ''
        return name if name.startswith('/') or not d else d + '/' + name

    def file_of(scope):
        for _ in range(100):
            kind, body = nodes[scope.lstrip('!')]
            f = field(body, 'file')
            if f:
                return path_of(f)
            scope = field(body, 'scope')
        raise ValueError('scope chain too deep')

    refs = set()
    for line in text.split('\n'):
        if not line.startswith((' ', '\t')):
            continue
        t = line.strip()
        if t.startswith(('#dbg_', ';')) or '@llvm.dbg.' in t:
            continue
        m = re.search(r'!dbg !(\d+)\s*$', line) or re.search(r'!dbg !(\d+),', line)
        if not m:
            continue
        n = m.group(1)
        first = True
        while n is not None:
            kind, body = nodes[n]
            line_no = int(field(body, 'line'))
            if line_no == 0:
                break
            refs.add((file_of(field(body, 'scope')), line_no))
            first = False
            ia = field(body, 'inlinedAt')
            n = ia.lstrip('!') if ia else None
    return refs


PTX_LABEL = re.compile(r'^[A-Za-z_$%][\w$]*:(?!:)\s*(?://.*)?$')


def ptx_refs(text):
    """What each `.loc` governs: the instruction lines after it, up to the
    next `.loc` or the end of the function body.  An instruction is a line
    that is no directive (`.`), comment, brace or label; `::` in an opcode
    (`fence.proxy.async.shared::cta;`) makes no label."""
    files = {m.group(1): m.group(2)
             for m in re.finditer(r'^\s*\.file\s+(\d+)\s+"([^"]*)"', text, re.M)}
    by_base = {}
    for p in files.values():
        by_base.setdefault(os.path.basename(p), set()).add(p)
    refs = set()
    cur = None
    depth = 0
    for line in text.split('\n'):
        t = line.strip()
        if not t or t.startswith('//'):
            continue
        m = re.match(r'^\.loc\s+(\d+)\s+(\d+)\s+\d+(.*)$', t)
        if m:
            cur = None
            if int(m.group(2)) != 0:
                cur = {(files[m.group(1)], int(m.group(2)))}
                chain = m.group(3)
                if '@[' in chain:
                    for base, ln in re.findall(r'@\[\s*([^\s:]+):(\d+):\d+', chain):
                        cands = by_base.get(base, set())
                        cur.add((next(iter(cands)) if len(cands) == 1 else base, int(ln)))
            continue
        code = t.split('//')[0].strip()
        depth += code.count('{') - code.count('}')
        if depth <= 0:
            depth, cur = 0, None
        if t.startswith('.') or not code.strip('{}() \t') or PTX_LABEL.match(t):
            continue
        if cur:
            refs |= cur
    return refs


def amdgcn_refs(text):
    """AMDGCN assembly: `.file N "dir" "name"` (two strings; the name alone
    when absolute), `.loc F L C [prologue_end] [is_stmt 0]` with the inline
    chain in the `;` comment, as for PTX.  llvm-objdump's disassembly
    (.amdgcn_dis): `; /path/file.py:LINE` comment lines."""
    if 'file format elf64-amdgpu' in text[:4096]:
        return {(m.group(1), int(m.group(2)))
                for m in re.finditer(r'^; (.+):(\d+)$', text, re.M)}
    files = {}
    for m in re.finditer(r'^\s*\.file\s+(\d+)\s+"([^"]*)"(?:\s+"([^"]*)")?',
                         text, re.M):
        d, name = m.group(2), m.group(3)
        if name is None:
            files[m.group(1)] = d
        else:
            files[m.group(1)] = name if name.startswith('/') or not d else d + '/' + name
    by_base = {}
    for p in files.values():
        by_base.setdefault(os.path.basename(p), set()).add(p)
    refs = set()
    for m in re.finditer(r'^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+([^;]*)(;.*)?$', text, re.M):
        if int(m.group(2)) == 0:
            continue  # "no source line": the comment's chain is not used
        refs.add((files[m.group(1)], int(m.group(2))))
        chain = m.group(4) or ''
        if '@[' in chain:
            for base, line in re.findall(r'@\[\s*([^\s:]+):(\d+):\d+', chain):
                cands = by_base.get(base, set())
                refs.add((next(iter(cands)) if len(cands) == 1 else base, int(line)))
    return refs


def sass_refs(text):
    """The innermost frame of the location that instructions (`/*ADDR*/
    OPCODE`) follow, up to a section or function boundary.  A `//## File`
    comment after one that says "inlined at" names a caller (nvdisasm -gi
    writes a stack innermost first); after one that does not, it starts a
    new location (the last row at an address holds)."""
    refs = set()
    cur = None
    chained = False  # the last line was a comment naming a caller
    for line in text.split('\n'):
        t = line.strip()
        m = re.match(r'//## File "([^"]*)", line (\d+)', t)
        if m:
            if not chained:
                cur = (m.group(1), int(m.group(2))) if m.group(2) != '0' else None
            chained = 'inlined at' in t
            continue
        chained = False
        if re.match(r'/\*[0-9a-fA-F]+\*/', t):
            if cur:
                refs.add(cur)
        elif t.startswith(('//-----', '.section')) or re.match(r'^\.text\.\S+:$', line):
            cur = None
    return refs


READERS = {'ttir': mlir_refs, 'ttgir': mlir_refs, 'llir': llvm_refs,
           'ptx': ptx_refs, 'sass': sass_refs, 'amdgcn': amdgcn_refs}


def run_json(tkview, *args):
    out = subprocess.run([tkview, *args, '--json', '--quiet'], check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)


def main():
    tkview, capture = sys.argv[1], sys.argv[2]
    info = run_json(tkview, 'info', capture)
    refs = run_json(tkview, 'refs', capture)
    checks = []
    for kinfo, kref in zip(info['kernels'], refs):
        assert (kinfo['name'], kinfo['hash']) == (kref['name'], kref['hash'])
        irloc = kinfo['irloc_stage']
        order = list(READERS)
        for stage, sinfo in kinfo['stages'].items():
            label = '%s %s %s' % (kinfo['name'], kinfo['hash'][:12], stage)
            if sinfo is None:
                continue
            if irloc and order.index(stage) > order.index(irloc):
                checks.append((label, None, 'USE_IR_LOC later stage: see test_bind'))
                continue
            text = read_kernel_file(sinfo['path']).decode('utf-8', 'surrogateescape')
            want = {r for r in READERS[stage](text) if r[1] != 0}
            # SASS and a disassembled AMDGCN name innermost frames only:
            # tkview may add callers from another stage, not counted here.
            innermost = stage == 'sass' or (
                stage == 'amdgcn' and not sinfo['inline_frames'])
            got = {(r['file'], r['line']) for r in kref['stages'].get(stage, [])
                   if not innermost or r['exact'] > 0}
            checks.append((label, want == got,
                           'missing %s extra %s' % (sorted(want - got)[:5],
                                                    sorted(got - want)[:5])
                           + ' (%d source lines)' % len(want)))
    print('1..%d' % len(checks))
    failed = 0
    for i, (label, ok, detail) in enumerate(checks, 1):
        if ok is None:
            print('ok %d - %s # SKIP %s' % (i, label, detail))
        elif ok:
            print('ok %d - %s: %s' % (i, label, detail.split(' (')[-1].rstrip(')')))
        else:
            failed += 1
            print('not ok %d - %s: %s' % (i, label, detail))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
