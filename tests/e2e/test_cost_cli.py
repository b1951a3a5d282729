#!/usr/bin/env python3
"""tkview hot, profile import and info's cost on the profiled samples,
checked against the Nsight Compute exports by an independent reading.

The independent reading is this file's own, a few lines of plain Python
that share nothing with tkview: the export's rows (csv module), the
.sass_gi line table (each instruction's innermost frame is the last
`//## File "P", line N` comment above it), the PTX call stacks (the
`// f.py:L:C @[ g.py:L:C ]` comment of each .loc) and ncu's own fold of
instructions onto lines (the cuda,sass export).  Every per-line number
tkview prints must be the one this reading makes.  Numbers read by hand
are quoted with the export row they come from.

Usage: test_cost_cli.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps)
Prints TAP.
"""
import collections
import csv
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, test  # noqa: E402

TKVIEW = sys.argv[1]
SAMPLES = os.environ['TK_TEST_SAMPLES']
MATMUL = os.path.join(SAMPLES, 'matmul_profile')
ATTN = os.path.join(SAMPLES, 'attention_fwd')
MATMUL_CSV = os.path.join(MATMUL, 'ncu', 'source_sass.csv.gz')
ATTN_CSV = os.path.join(ATTN, 'ncu', 'source_sass.csv.gz')
ENV = {k: v for k, v in os.environ.items()
       if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300, env=ENV)
    return (p.returncode, p.stdout.decode('utf-8', 'replace'),
            p.stderr.decode('utf-8', 'replace'))


def run_json(*args):
    code, out, err = run(*args, '--json')
    assert code == 0, (code, err)
    return json.loads(out)


# ---- the independent reading --------------------------------------------

def read_text(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        return f.read()


def export_rows(path):
    """{offset: {column: value}} of the SASS view export: the address minus
    the first row's (the function's first instruction)."""
    rows = list(csv.reader(io.StringIO(read_text(path))))
    assert rows[0][0] == 'Kernel Name', rows[0]
    header, data = rows[1], rows[2:]
    base = int(data[0][0], 16)
    out = {}
    for r in data:
        vals = {}
        for h, v in zip(header[2:], r[2:]):
            try:
                vals[h] = float(v)
            except ValueError:
                pass
        out[int(r[0], 16) - base] = vals
    return out


def sass_table(path):
    """{offset: (base name, line)}: the innermost frame of each
    instruction, from the comment above it."""
    frame, out = None, {}
    for line in open(path, encoding='utf-8'):
        m = re.match(r'\s*//## File "([^"]*)", line (\d+)', line)
        if m:
            frame = (os.path.basename(m.group(1)), int(m.group(2)))
            continue
        m = re.match(r'\s*/\*([0-9a-f]+)\*/\s+\S', line)
        if m:
            out[int(m.group(1), 16)] = frame
    return out


def ptx_callers(path):
    """{(base, line): set of caller chains} from the PTX's .loc comments:
    `// standard.py:43:17 @[ matmul_profile.py:22:23 @[ m.py:44:46 ] ]`
    gives (standard.py, 43) the chain ((matmul_profile.py, 22), (m.py, 44))."""
    out = collections.defaultdict(set)
    for line in open(path, encoding='utf-8'):
        if not re.match(r'\s*\.loc\s', line) or '//' not in line:
            continue
        frames = re.findall(r'([^\s@\[\]/]+):(\d+):\d+', line.split('//', 1)[1])
        if not frames:
            continue
        inner = (frames[0][0], int(frames[0][1]))
        out[inner].add(tuple((f, int(l)) for f, l in frames[1:]))
    return out


def attribute(export, sass, callers, column):
    """exact, inclusive and shared per (base, line), the rule of
    docs/cost.md: a frame the PTX pins down is certain; with several
    caller chains, frames of every chain are certain, the others shared."""
    exact, incl, shared = (collections.Counter() for _ in range(3))
    for off, vals in export.items():
        v = vals.get(column, 0.0)
        inner = sass[off]
        if inner is None:
            continue
        exact[inner] += v
        incl[inner] += v
        chains = callers.get(inner, set())
        if not chains:
            continue
        common = set.intersection(*(set(c) for c in chains))
        some = set().union(*(set(c) for c in chains)) - common - {inner}
        for f in common - {inner}:
            incl[f] += v
        if len(chains) > 1:
            for f in some:
                shared[f] += v
    return exact, incl, shared


def ncu_fold(path):
    """ncu's own fold (the cuda,sass export): {(base, line): samples}."""
    out, base = {}, None
    for r in csv.reader(io.StringIO(read_text(path))):
        if r and r[0] == 'File Path':
            base = os.path.basename(r[1])
        elif r and r[0].isdigit() and len(r) > 4 and r[4] not in ('', '-'):
            if float(r[4]):
                out[(base, int(r[0]))] = float(r[4])
    return out


def kernel_dir(bundle):
    return next(os.path.join(bundle, d) for d in os.listdir(bundle)
                if os.path.isdir(os.path.join(bundle, d, 'passes')))


def independent(bundle, csv_path, column):
    kd = kernel_dir(bundle)
    sass = sass_table(next(os.path.join(kd, f) for f in os.listdir(kd)
                           if f.endswith('.sass_gi')))
    ptx = ptx_callers(next(os.path.join(kd, f) for f in os.listdir(kd)
                           if f.endswith('.ptx')))
    export = export_rows(csv_path)
    assert set(export) == set(sass), 'the export is not this SASS'
    return export, attribute(export, sass, ptx, column)


def hot_lines(bundle, *args):
    d = run_json('hot', bundle, '--top', '0', '--inclusive', *args)
    (k,) = d['kernels']
    return k, {(os.path.basename(l['file']), l['line']): l for l in k['lines']}


# ---- tests ------------------------------------------------------------------

@test
def matmul_totals_are_the_exports():
    export = export_rows(MATMUL_CSV)
    k, _ = hot_lines(MATMUL)
    assert len(export) == 1344
    for col, metric in [('Warp Stall Sampling (All Samples)', 'samples'),
                        ('Warp Stall Sampling (Not-issued Samples)',
                         'samples_not_issued'),
                        ('Instructions Executed', 'inst_executed'),
                        ('stall_long_sb', 'stall_long_sb'),
                        ('stall_barrier', 'stall_barrier')]:
        want = sum(v[col] for v in export.values())
        assert k['total'][metric] == want, (metric, k['total'][metric], want)
    # ncu/README.md: 40 471 samples, 25 480 not issued, 5 521 408 executed
    assert k['total']['samples'] == 40471
    assert k['total']['samples_not_issued'] == 25480
    assert k['total']['inst_executed'] == 5521408
    assert k['total']['instructions'] == 1344
    assert k['no_location']['samples'] == 0
    assert k['metric'] == 'samples' and k['profile']['tool'] == 'ncu'


@test
def matmul_lines_match_the_independent_reading():
    for column, metric in [('Warp Stall Sampling (All Samples)', 'samples'),
                           ('Instructions Executed', 'inst_executed'),
                           ('stall_mio', 'stall_mio')]:
        _, (exact, incl, shared) = independent(MATMUL, MATMUL_CSV, column)
        _, lines = hot_lines(MATMUL, '--metric', metric)
        keys = {k for k, v in incl.items() if v} | {k for k, v in shared.items() if v}
        assert keys == set(lines), (metric, keys ^ set(lines))
        for key, l in lines.items():
            assert l['exact'] == exact[key], (metric, key, l['exact'], exact[key])
            assert l['inclusive'] == incl[key], (metric, key, l['inclusive'], incl[key])
            assert l['shared'] == shared[key], (metric, key, l['shared'], shared[key])


@test
def matmul_exact_is_ncus_own_fold():
    """ncu folds each instruction onto its innermost line: tkview's exact."""
    fold = ncu_fold(os.path.join(MATMUL, 'ncu', 'source_cuda_sass.csv.gz'))
    _, lines = hot_lines(MATMUL)
    got = {k: l['exact'] for k, l in lines.items() if l['exact']}
    assert got == fold, set(got.items()) ^ set(fold.items())
    # source_cuda_sass.csv line 1409: "54","acc = tl.dot(a, b, acc)","-","-","10874",...
    assert lines[('matmul_profile.py', 54)]['exact'] == 10874
    # line 119: "34","return tl.where(x >= 0, x, slope * x)","-","-","829",...
    assert lines[('matmul_profile.py', 34)]['exact'] == 829
    # leaky_relu (line 34) is inlined at line 57 only
    assert lines[('matmul_profile.py', 57)]['inclusive'] == 829
    assert lines[('matmul_profile.py', 57)]['exact'] == 0


@test
def matmul_tl_cdiv_summed_by_hand():
    """standard.py:43 (tl.cdiv's `return (x + (div - 1)) // div`): the
    .sass_gi puts 10 instructions under `//## File ".../standard.py", line
    43`; their rows in source_sass.csv, read one by one (CSV line: offset,
    instruction, samples):
        4: 0x0010 LDC.64 R2, c[0x0][0x228]          7
        5: 0x0020 S2R R7, SR_CTAID.X                1
       28: 0x0190 VIADD R0, R3, 0x7f              120
       33: 0x01e0 SHF.R.S32.HI R5, RZ, 0x1f, R0     4
       37: 0x0220 LEA.HI R5, R5, R0, RZ, 0x7        2
       41: 0x0260 SHF.R.S32.HI R5, RZ, 0x7, R5      4
      113: 0x06e0 VIADD R0, R2, 0x7f                1
      116: 0x0710 SHF.R.S32.HI R5, RZ, 0x1f, R0     0
      119: 0x0740 LEA.HI R5, R5, R0, RZ, 0x7        1
      308: 0x1310 VIADD R152, R6, 0x3f              8
    7 + 1 + 120 + 4 + 2 + 4 + 1 + 0 + 1 + 8 = 148, ncu's own fold of the
    line (source_cuda_sass.csv line 4).  tl.cdiv is called at lines 22
    and 23 (in _tile_of, itself at 44) and at 51: the 148 are shared by
    those call sites, which the SASS does not tell apart."""
    _, lines = hot_lines(MATMUL)
    cdiv = lines[('standard.py', 43)]
    assert cdiv['exact'] == cdiv['inclusive'] == 7 + 1 + 120 + 4 + 2 + 4 + 1 + 0 + 1 + 8
    for caller in (22, 23, 44, 51):
        l = lines[('matmul_profile.py', caller)]
        assert l['shared'] == 148 and l['shared_sites'] == 3, (caller, l)
    export = export_rows(MATMUL_CSV)
    assert [export[o]['Warp Stall Sampling (All Samples)']
            for o in (0x10, 0x20, 0x190, 0x1e0, 0x220, 0x260, 0x6e0, 0x710, 0x740,
                      0x1310)] == [7, 1, 120, 4, 2, 4, 1, 0, 1, 8]


@test
def matmul_conserved():
    k, lines = hot_lines(MATMUL)
    for metric, total in k['total'].items():
        if metric in ('samples', 'inst_executed', 'instructions'):
            s = sum(l['exact'] for l in lines.values()) if metric == k['metric'] else None
            if s is not None:
                assert s + k['no_location'][metric] == total, (metric, s, total)
    # the same for every metric through --metric
    for metric in ('instructions', 'tensor', 'inst_executed', 'stall_wait'):
        k, lines = hot_lines(MATMUL, '--metric', metric)
        s = sum(l['exact'] for l in lines.values())
        assert s + k['no_location'][metric] == k['total'][metric], metric


@test
def attention_two_call_sites():
    column = 'Warp Stall Sampling (All Samples)'
    export, (exact, incl, shared) = independent(ATTN, ATTN_CSV, column)
    k, lines = hot_lines(ATTN)
    assert k['total']['samples'] == sum(v[column] for v in export.values()) == 2300
    for key, l in lines.items():
        assert (l['exact'], l['inclusive'], l['shared']) == \
            (exact[key], incl[key], shared[key]), key
    # _attn_inner is called at lines 73 and 77 (each call's last line):
    # what only one call has (the causal mask, line 33, STAGE 2) is certain,
    # what both have is shared by both
    a, b = lines[('attention_fwd.py', 73)], lines[('attention_fwd.py', 77)]
    assert a['shared'] == b['shared'] > 0
    assert a['shared_sites'] == b['shared_sites'] == 2
    assert b['inclusive'] >= lines[('attention_fwd.py', 33)]['exact'] > 0
    assert k['unsplit_instructions'] > 0
    code, out, _ = run('hot', ATTN, '--top', '3')
    assert code == 0 and 'could not be given to one' in out, out


def bundle_without_profile(src, tmp):
    dst = os.path.join(tmp, os.path.basename(src))
    shutil.copytree(src, dst)
    with open(os.path.join(dst, 'manifest.json')) as f:
        man = json.load(f)
    for k in man['kernels']:
        rel = k['files'].pop('profile')
        os.remove(os.path.join(dst, rel))
    with open(os.path.join(dst, 'manifest.json'), 'w') as f:
        json.dump(man, f, indent=2)
    return dst, rel


@test
def import_makes_the_committed_profile():
    with tempfile.TemporaryDirectory() as tmp:
        b, rel = bundle_without_profile(MATMUL, tmp)
        code, out, _ = run('hot', b, '--top', '1')
        assert code == 0 and 'SASS instructions' in out, out
        code, out, err = run('profile', 'import', b, MATMUL_CSV)
        assert code == 0, err
        assert out == ('matmul_pipelined (bc33df85): 1344 instructions, 40471 '
                       'samples -> ' + rel + '\n'), out
        with open(os.path.join(b, rel), 'rb') as f, \
                open(os.path.join(MATMUL, rel), 'rb') as g:
            assert f.read() == g.read()
        code, _, err = run('profile', 'import', b, MATMUL_CSV)
        assert code == 1 and 'already has a profile' in err, err
        code, _, err = run('profile', 'import', b, MATMUL_CSV, '--force')
        assert code == 0, err
        k, _ = hot_lines(b)
        assert k['total']['samples'] == 40471
        # an export of another kernel only: nothing to import
        code, _, err = run('profile', 'import', b, ATTN_CSV)
        assert code == 1 and 'kernel attn_fwd: not a kernel of the bundle, skipped' in err, err
        assert 'none of its 1 kernel section is of a kernel of the bundle' in err, err
        # with a section of another kernel (as PyTorch's are) before it
        both = os.path.join(tmp, 'both.csv')
        with open(both, 'w') as f:
            f.write(read_text(ATTN_CSV) + read_text(MATMUL_CSV))
        code, out, err = run('profile', 'import', b, both, '--force')
        assert code == 0 and out.startswith('matmul_pipelined (bc33df85): 1344'), (out, err)
        assert 'skipped' in err, err
        # the cuda,sass view: refused with how to export the right one
        code, _, err = run('profile', 'import', b,
                           os.path.join(MATMUL, 'ncu', 'source_cuda_sass.csv.gz'))
        assert code == 3 and '--print-source sass' in err, err
        # not a bundle
        code, _, err = run('profile', 'import', os.path.join(b, rel), MATMUL_CSV)
        assert code == 3, err
        # an instruction of another compile: refused, naming it
        text = read_text(MATMUL_CSV).replace(
            '"0x7f090b7b15f0","@!PT  LDS RZ, [RZ]"',
            '"0x7f090b7b15f0","@!PT  STS RZ, [RZ]"')
        bad = os.path.join(tmp, 'bad.csv')
        with open(bad, 'w') as f:
            f.write(text)
        code, _, err = run('profile', 'import', b, bad, '--force')
        assert code == 1 and 'has LDS at offset 0x2bf0' in err, err


@test
def info_counts_classes():
    d = run_json('info', MATMUL)
    cost = d['kernels'][0]['cost']
    assert cost['instructions'] == 1344
    assert sum(cost['classes'].values()) == 1344
    # 8 HGMMA instructions: grep -c HGMMA matmul_pipelined.sass_gi
    assert cost['classes']['tensor'] == 8
    assert cost['profile']['totals']['samples'] == 40471
    code, out, _ = run('info', MATMUL)
    assert 'cost: 1344 SASS instructions:' in out and 'tensor 8' in out, out
    d = run_json('info', os.path.join(SAMPLES, 'add_sum_mlir'))
    assert d['kernels'][0]['cost'] is None  # no SASS


@test
def hot_text_and_errors():
    code, out, _ = run('hot', MATMUL, '--top', '2')
    assert code == 0
    first = out.splitlines()
    assert first[0].startswith('matmul_pipelined bc33df856790: 40471 samples'), first
    assert 'matmul_profile.py:54' in out and 'acc = tl.dot(a, b, acc)' in out
    assert 'stalls:' in out and '(20 more lines' in out, out
    code, _, err = run('hot', MATMUL, '--metric', 'bogus')
    assert code == 2 and 'stall_long_sb' in err, err
    code, _, err = run('hot', os.path.join(SAMPLES, 'add_sum_mlir'))
    assert code == 1 and 'no kernel has SASS' in err, err
    d = run_json('hot', os.path.join(SAMPLES, 'vector_add'))
    assert d['kernels'][0]['metric'] == 'instructions'
    assert d['kernels'][0]['profile'] is None


sys.exit(finish())
