#!/usr/bin/env python3
"""End-to-end tests on the raw GPU captures made without tkview
(sample_dumps/raw/*.tar.xz, see its README): several compiles of one kernel,
each with its pass dumps, and what sets a configuration apart.

Each case unpacks only the members it needs into its own temporary folder.
Expected values were read off the capture by hand (grep -c, the cache's
NAME.json files); the comments quote them.  Prints TAP.

Usage: test_raw_configs.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps/)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import Skip, finish, test  # noqa: E402

TKVIEW = sys.argv[1]
RAW = os.path.join(os.environ['TK_TEST_SAMPLES'], 'raw')
TMP = tempfile.mkdtemp(prefix='raw-configs-')
_unpacked = {}


def unpack(name, *members):
    """NAME/ with MEMBERS (paths under it) unpacked once; its path."""
    key = (name, members)
    if key in _unpacked:
        return _unpacked[key]
    tar = os.path.join(RAW, name + '.tar.xz')
    if not os.path.exists(tar) or not shutil.which('tar'):
        raise Skip('no %s or no tar' % tar)
    dest = os.path.join(TMP, '%s-%d' % (name, len(_unpacked)))
    os.makedirs(dest)
    subprocess.run(['tar', 'xJf', tar, '-C', dest,
                    *['%s/%s' % (name, m) for m in members]], check=True)
    _unpacked[key] = os.path.join(dest, name)
    return _unpacked[key]


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def run_json(*args, rc=0):
    code, out, err = run(*args, '--json')
    assert code == rc, (code, err)
    return json.loads(out), err


def fp8():
    return unpack('fp8_matmul_three', 'mlir_passes.txt', 'cache', 'kernel_dump', 'src')


# Cache NAME.json: 5S4WUO5 num_stages 4 (ecb96a3b), 57IBP47 num_stages 3
# (efd017f3), 755Q5DC num_stages 3 with enable_fp_fusion false (ff7b0e8c).
# mlir_passes.txt has 216 "IR Dump Before" headers: 72 per compile; the two
# stages-3 compiles' dumps are identical, line for line.
@test
def fp8_every_compile_has_its_dumps():
    r, err = run_json('info', fp8())
    ks = {k['hash'][:8]: k for k in r['kernels']}
    assert set(ks) == {'ecb96a3b', 'efd017f3', 'ff7b0e8c'}, list(ks)
    for h, k in ks.items():
        assert len(k['passes']) == 1 and k['passes'][0]['dumps'] == 72, (h, k['passes'])
    assert ks['ecb96a3b']['passes'][0]['shared_by'] == 0
    for h in ('efd017f3', 'ff7b0e8c'):
        p = ks[h]['passes'][0]
        assert p['shared_by'] == 2 and p['compile_dumps'] == 72, p
    assert 'none is shown' not in err, err
    assert 'have identical dumps; they are shown' in err, err
    code, out, _ = run('info', fp8())
    assert out.count('(shared by 2 compiles: identical dumps)') == 2, out


# ws_matmul: the specialized compile's NAME.json says num_warps 12, its
# TTGIR module "ttg.num-warps" = 4 with partition0/1 num_warps(4); 146
# headers in mlir_passes.txt, 73 per compile.
@test
def ws_compile_has_its_dumps():
    d = unpack('ws_matmul', 'mlir_passes.txt', 'cache', 'kernel_dump', 'src')
    r, err = run_json('info', d)
    assert len(r['kernels']) == 2
    warps = sorted(k['metadata']['num_warps'] for k in r['kernels'])
    assert warps == [4, 12], warps
    for k in r['kernels']:
        assert [p['dumps'] for p in k['passes']] == [73], (k['metadata'], k['passes'])
        assert k['passes'][0]['shared_by'] == 0
    seqs = sorted(k['passes'][0]['sequence'] for k in r['kernels'])
    assert seqs == [0, 1], seqs
    assert 'no dumps' not in err, err


# NAME.json: the stages-3 pair differ in "enable_fp_fusion": true / false and
# in nothing else but the hash; num_stages 4 sets the third apart.
@test
def fp8_compare_names_the_option():
    # Exit 1: no pass's output differs (the dumps are shared); the PTX does.
    r, _ = run_json('compare', fp8(), '--kernel', 'efd017f3', '--kernel-b', 'ff7b0e8c', rc=1)
    m = r['metadata']
    assert m['differs'] == ['enable_fp_fusion'], m['differs']
    assert m['a']['options']['enable_fp_fusion'] is True
    assert m['b']['options']['enable_fp_fusion'] is False
    code, out, _ = run('compare', fp8(), '--kernel', 'efd017f3', '--kernel-b', 'ff7b0e8c')
    star = [l.split()[1] for l in out.splitlines() if l.startswith('* ')]
    assert star == ['enable_fp_fusion'], star


@test
def fp8_info_says_what_sets_each_apart():
    r, _ = run_json('info', fp8())
    apart = {k['hash'][:8]: k['apart'] for k in r['kernels']}
    assert apart['ff7b0e8c'] == {'num_stages': '3', 'enable_fp_fusion': 'false'}, apart
    assert apart['efd017f3'] == {'num_stages': '3', 'enable_fp_fusion': 'true'}, apart
    assert apart['ecb96a3b'] == {'num_stages': '4', 'enable_fp_fusion': 'true'}, apart
    k = [k for k in r['kernels'] if k['hash'].startswith('ff7b0e8c')][0]
    assert k['options']['maxnreg'] is None and k['options']['arch'] == 'sm90'
    code, out, _ = run('info', fp8())
    assert '  apart: num_stages=3, enable_fp_fusion=false\n' in out, out


# The fusion-off PTX has no fma.rn.f32 where the stages-3 one has 128
# (grep -c), and 256 mul.rn.f32/add.rn.f32 instead.  Registers renamed by
# first use, the diff's first changed instruction is that change (the
# `.reg .b32 %r<587>` -> `%r<715>` declaration aside), not renumbering.
@test
def fp8_ptx_diff_shows_the_fusion_first():
    args = ('diff', fp8(), '--kernel', 'efd017f3', '--kernel-b', 'ff7b0e8c', '--stage', 'ptx')
    code, out, err = run(*args)
    assert code == 0, (code, err)
    changed = [l for l in out.splitlines()
               if l[:1] in '+-' and not l.startswith(('+++', '---')) and '.reg ' not in l]
    assert changed[0].startswith('+\tmul.rn.f32'), changed[:3]
    assert sum(1 for l in changed if l.startswith('-') and 'fma.rn.f32' in l) == 128
    assert sum(1 for l in changed if l.startswith('+') and ('mul.rn.f32' in l or 'add.rn.f32' in l)) == 256
    # Every removed line is an fma: nothing else changed once renamed.
    assert all('fma.rn.f32' in l for l in changed if l.startswith('-')), \
        [l for l in changed if l.startswith('-') and 'fma' not in l][:3]
    code, raw, _ = run(*args, '--raw-registers')
    assert code == 0 and len(raw.splitlines()) > 2 * len(out.splitlines())


# The report's kernel pages are titled with what sets each compile apart.
@test
def fp8_report_titles_tell_compiles_apart():
    out = os.path.join(TMP, 'report')
    code, _, err = run('--html', out, fp8(), '--no-passes')
    assert code == 0, err
    titles = set()
    for f in os.listdir(out):
        if f.startswith('k') and f.endswith('.html'):
            text = open(os.path.join(out, f), encoding='utf-8').read()
            title = text.split('<title>')[1].split('</title>')[0]
            # the hash prefix (8 hex digits) sets compiles apart as well
            name, prefix, rest = title.split(' ', 2)
            assert len(prefix) == 8 and int(prefix, 16) >= 0, title
            titles.add(name + ' ' + rest)
    assert titles == {'fp8_matmul_kernel (num_stages=%s, enable_fp_fusion=%s) - tkview' % x
                      for x in (('4', 'true'), ('3', 'true'), ('3', 'false'))}, titles


# autotune_matmul: five configurations; autotune_timings.json (the
# autotuner's configs_timings, [median, p20, p80] ms) and stdout's
# "best config selected: BLOCK_M: 128, BLOCK_N: 256, BLOCK_K: 64,
# num_warps: 8, num_ctas: 1, num_stages: 3" (TRITON_PRINT_AUTOTUNING).
@test
def autotune_configs_table():
    d = unpack('autotune_matmul', 'mlir_passes.txt', 'cache', 'kernel_dump', 'src',
               'autotune_timings.json')
    truth = json.load(open(os.path.join(d, 'autotune_timings.json')))['configs']
    r, _ = run_json('configs', d)
    assert [g['kernel'] for g in r['groups']] == ['autotuned_matmul_kernel']
    rows = r['groups'][0]['configs']
    assert len(rows) == 5
    seen = set()
    for row in rows:
        apart = dict(x.split('=') for x in row['apart'].split(', '))
        key = (apart['BLOCK_M'], apart['BLOCK_N'], apart['BLOCK_K'],
               row['num_warps'], row['num_stages'])
        want = [t['ms'][0] for t in truth
                if (str(t['kwargs']['BLOCK_M']), str(t['kwargs']['BLOCK_N']),
                    str(t['kwargs']['BLOCK_K']), t['num_warps'], t['num_stages']) == key]
        assert len(want) == 1 and row['ms'] == want[0], (key, row['ms'], want)
        seen.add(key)
    assert len(seen) == 5
    win = [row for row in rows if row['winner']]
    assert len(win) == 1 and win[0]['num_warps'] == 8 and win[0]['num_stages'] == 3
    assert 'BLOCK_N=256' in win[0]['apart'] and win[0]['first_divergence'] == '(winner)'
    for row in rows:
        if not row['winner']:
            # other tile sizes: the TTIR differs from the first pass on
            assert row['first_divergence'].startswith('Inliner (ttir)'), row


@test
def bundle_keeps_the_autotune_timings():
    """`tkview bundle` of a capture folder copies its autotune_timings.json:
    the bundle's configs table has the same times."""
    d = unpack('autotune_matmul', 'mlir_passes.txt', 'cache', 'kernel_dump', 'src',
               'autotune_timings.json')
    out = os.path.join(TMP, 'autotune-bundle')
    code, _, err = run('bundle', d, '-o', out)
    assert code == 0, err
    with open(os.path.join(d, 'autotune_timings.json'), 'rb') as a, \
            open(os.path.join(out, 'autotune_timings.json'), 'rb') as b:
        assert a.read() == b.read()
    raw, _ = run_json('configs', d)
    kept, _ = run_json('configs', out)
    ms = lambda r: sorted((row['apart'], row['ms'], row['winner'])
                          for row in r['groups'][0]['configs'])
    assert ms(kept) == ms(raw) and all(t is not None for _, t, _ in ms(kept)), ms(kept)


def gi_lines(path, base):
    """SASS instructions per line of the file named BASE in a .sass_gi, each
    on the line of the last `//## File "P", line N` above it (its innermost
    frame): read here, sharing nothing with tkview."""
    import re
    count, cur = {}, None
    with open(path, encoding='utf-8') as f:
        for ln in f:
            m = re.search(r'//## File "([^"]+)", line (\d+)', ln)
            if m:
                cur = int(m.group(2)) if os.path.basename(m.group(1)) == base else None
            elif cur is not None and re.search(r'/\*[0-9a-f]{4,}\*/\s+\S', ln):
                count[cur] = count.get(cur, 0) + 1
    return count


@test
def autotune_configs_matrix():
    """configs --json "lines": the SASS instructions of every source line per
    compile, against each compile's .sass_gi (a raw capture keeps SASS for
    the kernel_dump compiles only: the others count 0, their "sass" null)"""
    d = unpack('autotune_matmul', 'mlir_passes.txt', 'cache', 'kernel_dump', 'src',
               'autotune_timings.json')
    r, _ = run_json('configs', d)
    g = r['groups'][0]
    info, _ = run_json('info', d)
    gi_of = {k['hash']: (k['stages'].get('sass') or {}).get('path') for k in info['kernels']}
    mine = [ln for ln in g['lines'] if os.path.basename(ln['file']) == 'autotune_matmul.py']
    assert len(mine) >= 10, len(mine)
    keys = [(ln['file'], ln['line']) for ln in g['lines']]
    assert keys == sorted(keys), 'sorted by file and line'
    checked = 0
    for c, row in enumerate(g['configs']):
        gi = gi_of[row['hash']]
        if not gi:
            assert row['sass'] is None and all(ln['sass'][c] == 0 for ln in g['lines'])
            continue
        want = gi_lines(gi, 'autotune_matmul.py')
        got = {ln['line']: ln['sass'][c] for ln in mine}
        for line in set(want) | set(got):
            assert got.get(line, 0) == want.get(line, 0), (row['hash'], line)
            checked += 1
    assert checked >= 40, checked
    # by hand (awk over the winner's .sass_gi): line 39 (for k in range(...))
    # holds 241 instructions in BLOCK_N=256's compile
    w = [c for c, row in enumerate(g['configs']) if row['winner']][0]
    assert [ln['sass'][w] for ln in mine if ln['line'] == 39] == [241]


try:
    finish_code = finish()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
sys.exit(finish_code)
