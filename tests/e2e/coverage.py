#!/usr/bin/env python3
"""Coverage check: for every stage of every kernel of a capture, the set of
source lines the stage's text refers to, counted here independently with a
few regular expressions, must equal the set tkview binds (`tkview refs`).

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


def mlir_refs(text):
    # Every "file":L:C literal of a loc(...), alias definitions included:
    # MLIR prints only the aliases that something uses.
    return {(m.group(1), int(m.group(2)))
            for m in re.finditer(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)', text)}


def llvm_refs(text):
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
    for kind, body in nodes.values():
        if kind == 'DILocation':
            refs.add((file_of(field(body, 'scope')), int(field(body, 'line'))))
    for m in re.finditer(r'^define .* !dbg !(\d+)', text, re.M):
        kind, body = nodes[m.group(1)]
        refs.add((file_of('!' + m.group(1)), int(field(body, 'line'))))
    return refs


def ptx_refs(text):
    files = {m.group(1): m.group(2)
             for m in re.finditer(r'^\s*\.file\s+(\d+)\s+"([^"]*)"', text, re.M)}
    by_base = {}
    for p in files.values():
        by_base.setdefault(os.path.basename(p), set()).add(p)
    refs = set()
    for m in re.finditer(r'^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(.*)$', text, re.M):
        refs.add((files[m.group(1)], int(m.group(2))))
        chain = m.group(3)
        if '@[' in chain:
            for base, line in re.findall(r'@\[\s*([^\s:]+):(\d+):\d+', chain):
                cands = by_base.get(base, set())
                refs.add((next(iter(cands)) if len(cands) == 1 else base, int(line)))
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
    refs = set()
    for m in re.finditer(r'//## File "([^"]*)", line (\d+)', text):
        refs.add((m.group(1), int(m.group(2))))
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
            with open(sinfo['path'], encoding='utf-8', errors='surrogateescape') as f:
                want = {r for r in READERS[stage](f.read()) if r[1] != 0}
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
