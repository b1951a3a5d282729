#!/usr/bin/env python3
"""End-to-end tests of `tkview compare`: the first divergence of two
compilations, checked against a comparison written here, independently of
tkview: the two MLIR dump sequences cut at their headers, each dump with its
locations stripped (`loc(...)`, `#loc` lines), blank lines dropped and SSA
names renamed in order of first appearance; the output of pass i is dump
i + 1.  The test also says exactly which dump line each side first differs
on, as read by hand (zcat | sed -n) and quoted below.

Pairs: sample_dumps/matmul_configs (01cca3c5 = 4 warps / 3 stages, 0cfc4f76
= 4 / 2, b4f5182e = 8 / 3) and, with the shared dumps, autotuned_matmul's
three configurations.  Prints TAP.

Usage: test_compare.py TKVIEW   (TK_TEST_SAMPLES: sample_dumps/;
                                 TK_TEST_DUMPS: the unpacked shared dumps)
"""
import glob
import gzip
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import Skip, finish, run as run_case  # noqa: E402

TKVIEW = sys.argv[1]
SAMPLES = os.environ['TK_TEST_SAMPLES']
DUMPS = os.environ.get('TK_TEST_DUMPS', '')
MC = os.path.join(SAMPLES, 'matmul_configs')
AT = os.path.join(DUMPS, 'autotuned_matmul')


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def run_json(*args, rc=0):
    code, out, err = run(*args, '--json')
    assert code == rc, (code, err)
    return json.loads(out)


# ---- the independent comparison ---------------------------------------------

HEADER = re.compile(r'^// -----// IR Dump Before (\S+) \(([^)]*)\)')
SSA = re.compile(r'%[A-Za-z0-9_$.\-]+|\^bb[0-9]+')


def read_dumps(lines):
    """[(pass, arg, header line, [(line number, text)])] of every Before dump."""
    dumps = []
    for i, line in enumerate(lines, 1):
        m = HEADER.match(line)
        if m:
            dumps.append((m.group(1), m.group(2), i, []))
        elif line.startswith('// -----// IR Dump'):
            raise AssertionError('unexpected header at line %d' % i)
        elif dumps:
            dumps[-1][3].append((i, line))
    return dumps


def strip_loc(s):
    """The line without its loc(...) parts (balanced parentheses, strings)."""
    out, i = [], 0
    while True:
        j = s.find('loc(', i)
        if j < 0:
            out.append(s[i:])
            return ''.join(out)
        if j > 0 and (s[j - 1].isalnum() or s[j - 1] == '_'):
            out.append(s[i:j + 4])
            i = j + 4
            continue
        out.append(s[i:j])
        depth, k = 0, j + 3
        while k < len(s):
            if s[k] == '(':
                depth += 1
            elif s[k] == ')':
                depth -= 1
                if depth == 0:
                    break
            elif s[k] == '"':
                k += 1
                while k < len(s) and s[k] != '"':
                    k += 2 if s[k] == '\\' else 1
            k += 1
        i = k + 1


def normalize(body):
    """[(line number, text)]: no #loc lines, no blank lines, no locations,
    SSA values and blocks renamed in order of first appearance."""
    names, out = {}, []
    for n, line in body:
        if line.startswith('#loc'):
            continue
        t = strip_loc(line).strip()
        if not t:
            continue
        t = SSA.sub(lambda m: names.setdefault(
            m.group(0), ('%v' if m.group(0)[0] == '%' else '^b') + str(len(names))), t)
        out.append((n, t))
    return out


def first_line_differing(x, y):
    """The (line A, line B) where two normalized dumps first differ."""
    nx, ny = normalize(x[3]), normalize(y[3])
    for p, q in zip(nx, ny):
        if p[1] != q[1]:
            return p[0], q[0]
    if len(nx) != len(ny):
        k = min(len(nx), len(ny))
        return (nx[k][0] if k < len(nx) else None), (ny[k][0] if k < len(ny) else None)
    return None


def independent_first(a, b):
    """(pass index, whether its input differs, (line A, line B)) of the first
    pass whose output (the next dump) differs, or None."""
    assert [(d[0], d[1]) for d in a] == [(d[0], d[1]) for d in b], 'pipelines differ'
    input_differs = first_line_differing(a[0], b[0]) is not None
    if input_differs:
        return 0, True, first_line_differing(a[0], b[0])
    for i in range(len(a) - 1):
        where = first_line_differing(a[i + 1], b[i + 1])
        if where:
            return i, False, where
    return None


def bundle_dumps(h):
    path = os.path.join(MC, 'matmul_kernel-%s' % h, 'passes', 'mlir.txt.gz')
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        lines = f.read().split('\n')
    return lines, read_dumps(lines)


def check_pair(path, ka, kb, want_index, want_name, want_input):
    j = run_json('compare', path, '--kernel', ka, '--kernel-b', kb)
    fd = j['first_divergence']
    assert fd is not None, j
    assert fd['pass'] == want_name, fd
    assert fd['index_a'] == want_index and fd['index_b'] == want_index, fd
    assert fd['input'] == want_input, fd
    assert j['unknown_before'] == 0, j['unknown_before']
    rows = j['passes']
    assert rows[fd['row']]['first_divergence'] is True
    assert all(r['output'] == 'same' for r in rows[:fd['row']])
    return j


# ---- matmul_configs ------------------------------------------------------------

def test_num_stages():
    """01cca3c5 (3 stages) against 0cfc4f76 (2 stages): the first output to
    differ is dump 31 (header line 6979, Before TritonGPUScheduleLoops), so
    pass 30, TritonGPUAssignLatencies; zcat | sed -n 7052p gives
      A: %a_53 = tt.load %a_ptrs_47, %a_52, %cst_0 {tt.latency = 2 : i32} ...
      B: %a_53 = tt.load %a_ptrs_47, %a_52, %cst_0 {tt.latency = 1 : i32} ..."""
    la, a = bundle_dumps('01cca3c5')
    lb, b = bundle_dumps('0cfc4f76')
    index, input_differs, (line_a, line_b) = independent_first(a, b)
    assert (index, input_differs) == (30, False), (index, input_differs)
    assert a[index][0] == 'TritonGPUAssignLatencies'
    assert a[index + 1][2] == 6979 and b[index + 1][2] == 6979
    assert (line_a, line_b) == (7052, 7052), (line_a, line_b)
    assert '{tt.latency = 2 : i32}' in la[line_a - 1]
    assert '{tt.latency = 1 : i32}' in lb[line_b - 1]
    j = check_pair(MC, '01cca3c5', '0cfc4f76', index, 'TritonGPUAssignLatencies', 'same')
    assert j['metadata']['differs'][:2] == ['num_stages', 'shared_bytes'], j['metadata']
    assert j['metadata']['a']['num_stages'] == 3 and j['metadata']['b']['num_stages'] == 2
    assert j['final_stages']['ttir']['verdict'] == 'same'
    assert j['final_stages']['sass']['verdict'] == 'different'


def test_num_warps():
    """01cca3c5 (4 warps) against b4f5182e (8 warps): dump 13 (header line
    3385, Before TritonGPUCoalesce) differs first, so pass 12,
    ConvertTritonToTritonGPU; zcat | sed -n 3386p gives
      A: #blocked = #ttg.blocked<{..., warpsPerCTA = [2, 2], order = [1, 0]}>
      B: #blocked = #ttg.blocked<{..., warpsPerCTA = [4, 2], order = [1, 0]}>"""
    la, a = bundle_dumps('01cca3c5')
    lb, b = bundle_dumps('b4f5182e')
    index, input_differs, (line_a, line_b) = independent_first(a, b)
    assert (index, input_differs) == (12, False), (index, input_differs)
    assert a[index][0] == 'ConvertTritonToTritonGPU'
    assert (line_a, line_b) == (3386, 3386), (line_a, line_b)
    assert 'warpsPerCTA = [2, 2]' in la[line_a - 1]
    assert 'warpsPerCTA = [4, 2]' in lb[line_b - 1]
    check_pair(MC, '01cca3c5', 'b4f5182e', index, 'ConvertTritonToTritonGPU', 'same')


def test_two_paths_and_itself():
    """The two-bundle form, a kernel against itself: nothing diverges, exit
    status 1; the LLVM-dialect pass with no dump after it is unknown."""
    j = run_json('compare', MC, MC, '--kernel', '01cca3c5', '--kernel-b', '01cca3c5', rc=1)
    assert j['first_divergence'] is None
    outputs = {r['output'] for r in j['passes']}
    assert outputs == {'same', 'unknown'}, outputs
    assert [r['pass'] for r in j['passes'] if r['output'] == 'unknown'] == ['LLVMDIScope']


def test_cli_errors_and_text():
    # one PATH needs --kernel-b
    code, _, err = run('compare', MC, '--kernel', '01cca3c5')
    assert code == 2 and 'usage' in err, (code, err)
    # an ambiguous name lists the candidates
    code, _, err = run('compare', MC, '--kernel', 'matmul_kernel', '--kernel-b', '0cfc4f76')
    assert code == 2, code
    assert 'matches 3 kernels' in err and '01cca3c5e16b' in err and 'b4f5182ec4b9' in err, err
    # text: the first divergence on top, the configuration, the table
    code, out, err = run('compare', MC, '--kernel', '01cca3c5', '--kernel-b', '0cfc4f76')
    assert code == 0, (code, err)
    lines = out.split('\n')
    first = [l for l in lines if l.startswith('first divergence:')]
    assert first and 'TritonGPUAssignLatencies' in first[0], out
    assert lines.index(first[0]) < next(i for i, l in enumerate(lines) if l.startswith('passes:'))
    assert any(l.startswith('* num_stages') for l in lines), out
    assert any('<- first divergence' in l and ' 30 ' in l for l in lines), out
    # --all: one line per row
    code, out, _ = run('compare', MC, '--kernel', '01cca3c5', '--kernel-b', '0cfc4f76', '--all')
    assert sum(1 for l in out.split('\n') if re.match(r'^[ >]\s*\d+\s+\d+\s+\d+\s', l)) == 72


# ---- autotuned_matmul ------------------------------------------------------------

def autotuned_sequences():
    """The capture's three compiles (each starts with Inliner), each mapped to
    its kernel by the cache's mm_kernel.ttgir, equal once normalized to a dump
    of exactly one sequence."""
    if not DUMPS or not os.path.isdir(AT):
        raise Skip('no shared dumps')
    with open(os.path.join(AT, 'mlir_passes.txt'), encoding='utf-8') as f:
        lines = f.read().split('\n')
    seqs = []
    for d in read_dumps(lines):
        if d[0] == 'Inliner':
            seqs.append([])
        seqs[-1].append(d)
    by_hash = {}
    for meta in glob.glob(os.path.join(AT, 'cache', '*', 'mm_kernel.json')):
        with open(meta, encoding='utf-8') as f:
            h = json.load(f)['hash'][:8]
        with open(os.path.join(os.path.dirname(meta), 'mm_kernel.ttgir'), encoding='utf-8') as f:
            final = [t for _, t in normalize(enumerate(f.read().split('\n'), 1))]
        hits = {i for i, s in enumerate(seqs)
                for d in s if [t for _, t in normalize(d[3])] == final}
        assert len(hits) == 1, (h, hits)
        by_hash[h] = seqs[hits.pop()]
    return lines, by_hash


def test_autotuned():
    """Other tiles: the compiles differ from their first dump (the input of
    pass 0, Inliner).  mlir_passes.txt, sed -n:
      448532f3 (128x128x64) line 40:    %rn = arith.constant 128 : i32
      a5fca209 (128x64x32) line 95326:  %rn = arith.constant 64 : i32
      448532f3 line 16:                 %rm = arith.constant 128 : i32
      e6566f05 (64x128x32) line 48025:  %rm = arith.constant 64 : i32
      a5fca209 line 95302:              %rm = arith.constant 128 : i32"""
    lines, seq = autotuned_sequences()
    want = {('448532f3', 'a5fca209'): (40, 95326, '128', '64'),
            ('448532f3', 'e6566f05'): (16, 48025, '128', '64'),
            ('e6566f05', 'a5fca209'): (48025, 95302, '64', '128')}
    for (ka, kb), (wa, wb, va, vb) in want.items():
        index, input_differs, (line_a, line_b) = independent_first(seq[ka], seq[kb])
        assert (index, input_differs) == (0, True), (ka, kb, index)
        assert (line_a, line_b) == (wa, wb), (ka, kb, line_a, line_b)
        assert lines[line_a - 1].strip().startswith('%r') and 'arith.constant %s :' % va in lines[line_a - 1]
        assert 'arith.constant %s :' % vb in lines[line_b - 1]
        check_pair(AT, ka, kb, 0, 'Inliner', 'different')


def main():
    for t in [test_num_stages, test_num_warps, test_two_paths_and_itself,
              test_cli_errors_and_text, test_autotuned]:
        run_case(t.__name__, t)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
