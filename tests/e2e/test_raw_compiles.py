#!/usr/bin/env python3
"""End-to-end tests on GPU captures made by `tkview capture` with its hook
(kept work folders, sample_dumps/raw/*.tar.xz, see its README): each compile's
dumps in a file of its own (run/compiles/HASH.PID.N.txt), also from
torch.compile's parallel compile workers; and bundles that store identical
dump text once and like text as differences (refs files into dumps/pool.zst),
with the trust checks a stranger's bundle gets; and a format_version 2 bundle
(refs files into dumps/pool.gz) still read.

Expected values were read off the captures by hand (grep -c, cmp, the cache's
NAME.json files); the comments quote them.  Prints TAP.

Usage: test_raw_compiles.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps/)
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
TMP = tempfile.mkdtemp(prefix='raw-compiles-')
_unpacked = {}


def unpack(name):
    if name in _unpacked:
        return _unpacked[name]
    tar = os.path.join(RAW, name + '.tar.xz')
    if not os.path.exists(tar) or not shutil.which('tar'):
        raise Skip('no %s or no tar' % tar)
    subprocess.run(['tar', 'xJf', tar, '-C', TMP], check=True)
    _unpacked[name] = os.path.join(TMP, name)
    return _unpacked[name]


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def run_json(*args, rc=0):
    code, out, err = run(*args, '--json')
    assert code == rc, (code, err)
    return json.loads(out), err


# inductor_parallel: the program's pid is 532 (stdout.txt: "inductor_parallel:
# pid 532, compile threads default"); compiles/ holds 4b9efdbf...532.1.txt,
# b857a347...777.1.txt and 91dae16b...779.1.txt: two of the three kernels were
# compiled by Inductor's worker processes 777 and 779.  Headers per file
# (grep -c "^// -----// IR Dump Before", LLVM's "; *** IR Dump" / "*** IR
# Dump" / "# *** IR Dump", "SoftwarePipeliner internal IR Dump"):
# 4b9efdbf 83 + 218 + 2, 91dae16b 73 + 191 + 2, b857a347 73 + 217 + 2.
INDUCTOR = {  # name: (hash, pid, MLIR headers, LLVM headers)
    'triton_per_fused__softmax_add_amax_cumsum_exp_gelu_mul_native_layer_norm_prepare_softmax_online_sub_0':
        ('4b9efdbf4685', 532, 83, 218),
    'triton_per_fused_sum_2': ('91dae16b9626', 779, 73, 191),
    'triton_red_fused_sum_1': ('b857a3479d40', 777, 73, 217),
}


@test
def parallel_workers_compiles_each_have_their_file():
    d = unpack('inductor_parallel')
    with open(os.path.join(d, 'stdout.txt')) as f:
        assert 'inductor_parallel: pid 532,' in f.read()
    r, err = run_json('info', d)
    got = {k['name']: k for k in r['kernels']}
    assert set(got) == set(INDUCTOR), list(got)
    for name, (hash12, pid, mlir, llvm) in INDUCTOR.items():
        k = got[name]
        assert k['hash'].startswith(hash12), (name, k['hash'])
        [p] = k['passes']
        base = os.path.basename(p['path'])
        assert base == '%s.%d.1.txt' % (k['hash'], pid), base
        # Every dump of the file: its MLIR and LLVM dumps and the two
        # SoftwarePipeliner dumps.
        assert p['dumps'] == mlir + llvm + 2 and p['shared_by'] == 0, (name, p)
    assert 'equally well' not in err and 'none is shown' not in err, err


@test
def parallel_workers_passes_split_per_kernel():
    """The same split as the serial captures of the same program (with the
    hook, and without it, by content) gave on the GPU: MLIR passes first,
    then LLVM's, one compile in the order made."""
    d = unpack('inductor_parallel')
    for name, (hash12, _, mlir, llvm) in INDUCTOR.items():
        r, err = run_json('passes', d, '--kernel', hash12)
        [k] = r['kernels']
        assert k['summary']['passes'] == mlir + llvm, (name, k['summary'])
        kinds = [p['kind'] for p in k['passes']]
        assert kinds[:mlir] == ['mlir'] * mlir, (name, kinds[:mlir])
        assert 'mlir' not in kinds[mlir:], (name, kinds[mlir:])


# fp8_matmul_three_tkview: cache NAME.json 3a52dd83 num_stages 3, 5f421c2f
# num_stages 4, 8720e1fd num_stages 3 with enable_fp_fusion false.  Each
# compile file has 72 + 207 + 2 headers.  cmp of the 3a52dd83 and 8720e1fd
# files: first difference at line 432614 of 475790, inside dump 245 (a machine
# code dump, FMUL where the other has FMA): their first 244 dumps are
# identical.
FP8 = {'3a52dd83': 281, '5f421c2f': 281, '8720e1fd': 281}


@test
def fp8_each_compile_has_its_own_dumps():
    d = unpack('fp8_matmul_three_tkview')
    r, err = run_json('info', d)
    got = {k['hash'][:8]: k for k in r['kernels']}
    assert set(got) == set(FP8), list(got)
    for h, dumps in FP8.items():
        [p] = got[h]['passes']
        assert p['dumps'] == dumps and p['shared_by'] == 0, (h, p)
        assert os.path.basename(p['path']).startswith(got[h]['hash']), p
    assert 'none is shown' not in err and 'identical dumps' not in err, err


def refs_lines(bundle, kernel_hash8):
    m = json.load(open(os.path.join(bundle, 'manifest.json')))
    [k] = [k for k in m['kernels'] if k['hash'].startswith(kernel_hash8)]
    [p] = k['passes']
    assert p['compression'] == 'refs' and p['file'].endswith('/passes/mixed.refs'), p
    with open(os.path.join(bundle, p['file'])) as f:
        lines = f.read().splitlines()
    assert lines[:2] == ['tkview-dump-refs 2', 'pool pool.zst'], lines[:2]
    return lines[2:]


def fp8_bundle():
    out = os.path.join(TMP, 'fp8.bundle')
    if not os.path.exists(out):
        code, _, err = run('bundle', unpack('fp8_matmul_three_tkview'), '-o', out, '-q')
        assert code == 0, err
    return out


@test
def bundle_stores_identical_dumps_once():
    out = fp8_bundle()
    m = json.load(open(os.path.join(out, 'manifest.json')))
    assert m['format_version'] >= 3
    a, c = refs_lines(out, '3a52dd83'), refs_lines(out, '8720e1fd')
    # The first 244 dumps are identical: each a header piece and at least one
    # body piece, so at least 488 pieces in the same places.
    same = 0
    while same < min(len(a), len(c)) and a[same] == c[same]:
        same += 1
    assert same >= 2 * 244, same
    assert a != c
    pool = os.path.getsize(os.path.join(out, 'dumps', 'pool.zst'))
    named = sum(int(l.split()[1]) for h in FP8 for l in refs_lines(out, h))
    assert pool < named, (pool, named)
    # Read back: every kernel has its 281 dumps, the pair part in dump 245.
    r, err = run_json('info', out)
    for k in r['kernels']:
        assert [p['dumps'] for p in k['passes']] == [281], k['passes']
    code, text, err = run('passes', out, '--kernel', '3a52dd83', '--json')
    assert code == 0, err


def copy_bundle(name):
    src = fp8_bundle() if name == 'fp8' else None
    dst = os.path.join(TMP, 'hostile-%d' % len(os.listdir(TMP)))
    shutil.copytree(src, dst, symlinks=True)
    return dst


def first_refs(bundle):
    m = json.load(open(os.path.join(bundle, 'manifest.json')))
    return os.path.join(bundle, m['kernels'][0]['passes'][0]['file']), m['kernels'][0]['hash']


def passes_of_first(bundle):
    code, out, err = run('info', bundle, '--json')
    assert code == 0, err
    k = json.loads(out)['kernels'][0]
    return k['passes'], err


@test
def refs_pool_never_read_outside_the_bundle():
    b = copy_bundle('fp8')
    refs, _ = first_refs(b)
    secret = os.path.join(TMP, 'secret.zst')
    shutil.copyfile(os.path.join(b, 'dumps', 'pool.zst'), secret)
    # The pool a link out of the bundle (to a valid pool, even).
    os.unlink(os.path.join(b, 'dumps', 'pool.zst'))
    os.symlink(secret, os.path.join(b, 'dumps', 'pool.zst'))
    passes, err = passes_of_first(b)
    assert passes == [], passes
    assert 'outside the bundle' in err, err
    # dumps/ itself a link out.
    b = copy_bundle('fp8')
    shutil.move(os.path.join(b, 'dumps'), os.path.join(TMP, 'dumps-elsewhere'))
    os.symlink(os.path.join(TMP, 'dumps-elsewhere'), os.path.join(b, 'dumps'))
    passes, err = passes_of_first(b)
    assert passes == [] and 'outside the bundle' in err, (passes, err)


@test
def refs_names_and_pieces_are_checked():
    cases = [
        ('pool ../../../x.gz', 'not a plain file name'),
        ('pool /etc/passwd', 'not a plain file name'),
        ('pool .hidden', 'not a plain file name'),
    ]
    for line, why in cases:
        b = copy_bundle('fp8')
        refs, _ = first_refs(b)
        text = open(refs).read().splitlines()
        text[1] = line
        open(refs, 'w').write('\n'.join(text) + '\n')
        passes, err = passes_of_first(b)
        assert passes == [] and why in err, (line, passes, err)
    # A piece past the pool's end, one of more than 4 MiB of text.
    size = os.path.getsize(os.path.join(fp8_bundle(), 'dumps', 'pool.zst'))
    for bad in ('%d 100 10' % size, '0 100 %d' % (5 << 20)):
        b = copy_bundle('fp8')
        refs, _ = first_refs(b)
        text = open(refs).read().splitlines()
        text.insert(3, bad)
        open(refs, 'w').write('\n'.join(text) + '\n')
        passes, err = passes_of_first(b)
        assert passes == [] and 'is no piece of the pool' in err, (bad, err)
    # The pool a refs file (a loop): refused, nothing read in circles.
    b = copy_bundle('fp8')
    refs, _ = first_refs(b)
    shutil.copyfile(refs, os.path.join(b, 'dumps', 'pool.zst'))
    passes, err = passes_of_first(b)
    assert passes == [] and 'not a zstd file' in err, err


@test
def refs_piece_that_lies_about_its_text_ends_the_text():
    """A piece whose member inflates to other than LEN bytes: the text ends
    before it, with a warning, the dumps before it kept."""
    b = copy_bundle('fp8')
    refs, _ = first_refs(b)
    text = open(refs).read().splitlines()
    at, in_len, n = text[400].split()[:3]
    text[400] = '%s %s %d' % (at, in_len, int(n) + 1)
    open(refs, 'w').write('\n'.join(text) + '\n')
    passes, err = passes_of_first(b)
    assert 'damaged' in err, err
    assert len(passes) == 1 and 0 < passes[0]['dumps'] < 281, passes


def pass_facts(answer):
    """What a `passes --json` answer says of each pass (and step), without
    what names files or lines in them."""
    keys = ('pass', 'arg', 'scope', 'kind', 'when', 'level', 'effect', 'added',
            'removed', 'changes', 'flags')
    out = []
    for k in json.loads(answer)['kernels']:
        for p in k['passes']:
            out.append(tuple(str(p.get(x)) for x in keys))
            for s in p.get('substeps', []):
                out.append(tuple(str(s.get(x)) for x in keys))
    return out


@test
def bundle_reads_back_every_dump_as_captured():
    """The bundle's dumps (pieces alone and bodies stored as differences
    from an earlier body) give each kernel the passes and changes the raw
    capture gives."""
    raw = unpack('fp8_matmul_three_tkview')
    out = fp8_bundle()
    for h in FP8:
        code, a, err = run('passes', raw, '--kernel', h, '--json', '--changes')
        assert code == 0, err
        code, b, err = run('passes', out, '--kernel', h, '--json', '--changes')
        assert code == 0, err
        a, b = pass_facts(a), pass_facts(b)
        assert len(a) > 200 and a == b, (h, len(a), len(b))


def refs_table(bundle):
    """Every refs file's lines, split: {path: [[IN, IN_LEN, LEN(, BIN,
    BIN_LEN, BLEN)], ...]}."""
    m = json.load(open(os.path.join(bundle, 'manifest.json')))
    out = {}
    for k in m['kernels']:
        for p in k['passes']:
            path = os.path.join(bundle, p['file'])
            out[path] = [[int(x) for x in l.split()] for l in open(path).read().splitlines()[2:]]
    return out


@test
def bundle_bases_are_pieces_stored_alone():
    """A body stored as a difference names a base that is a piece stored
    alone (so a reader decodes at most two frames), and most bodies of a
    capture are: each pass prints the whole module again."""
    t = refs_table(fp8_bundle())
    alone = {tuple(l[:3]) for ls in t.values() for l in ls if len(l) == 3}
    based = [l for ls in t.values() for l in ls if len(l) == 6]
    assert based and all(tuple(l[3:]) in alone for l in based), len(based)
    # 281 dumps of 3 compiles, the first 244 shared: at least 281 + 37 * 2
    # distinct bodies, most of them differences.
    frames = {l[0] for ls in t.values() for l in ls if l[2] > 1000}
    assert len({l[0] for l in based}) > len(frames) // 2, (len(based), len(frames))


def edit_line(bundle, refs, i, fields):
    text = open(refs).read().splitlines()
    text[i + 2] = ' '.join(str(x) for x in fields)
    open(refs, 'w').write('\n'.join(text) + '\n')


@test
def refs_bases_are_checked():
    """A base outside the pool, a piece that is its own base, a base that is
    itself a difference (a chain or a loop): the refs file is refused with
    the reason; a wrong base or a base that needs one of its own (named from
    another refs file) ends the text there, the dumps before it kept."""
    size = os.path.getsize(os.path.join(fp8_bundle(), 'dumps', 'pool.zst'))
    t = refs_table(fp8_bundle())
    first, _ = first_refs(fp8_bundle())
    mine = t[first]
    based = [i for i, l in enumerate(mine) if len(l) == 6]
    x = based[len(based) // 2]
    lx = mine[x]
    ly = next(mine[i] for i in based if mine[i][0] != lx[0])
    cases = [
        (lx[:3] + [size, 100, 10], 'is missing from the pool'),
        (lx[:3] + lx[:3], 'names its own frame as its base'),
        (lx[:3] + ly[:3], 'a chain of bases is refused'),
    ]
    for fields, why in cases:
        b = copy_bundle('fp8')
        refs, _ = first_refs(b)
        edit_line(b, refs, x, fields)
        passes, err = passes_of_first(b)
        assert passes == [] and why in err, (fields, err[-300:])
    # A wrong base: another body stored alone, not the one it was made with.
    other = next(l for l in mine if len(l) == 3 and l[2] > 1000 and l[:3] != lx[3:])
    # A base that needs a base of its own: a difference only another
    # kernel's refs file names (this one's check cannot see it).
    names = {l[0] for l in mine}
    elsewhere = next(l for p, ls in t.items() if p != first for l in ls
                     if len(l) == 6 and l[0] not in names)
    for base, why in ((other[:3], 'does not decode with its base'),
                      (elsewhere[:3], 'does not decode alone')):
        b = copy_bundle('fp8')
        refs, _ = first_refs(b)
        edit_line(b, refs, x, lx[:3] + base)
        passes, err = passes_of_first(b)
        assert 'damaged' in err and why in err and 'mixed.refs' in err, err[-300:]
        assert len(passes) == 1 and 0 < passes[0]['dumps'] < 281, passes


@test
def format_2_bundle_still_read():
    """tests/bundles/format2_ws_store: diag_ws_store bundled by tkview when
    bundles were format_version 2 (refs version 1 into dumps/pool.gz): its
    dumps are the raw capture's."""
    old = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bundles',
                       'format2_ws_store')
    m = json.load(open(os.path.join(old, 'manifest.json')))
    assert m['format_version'] == 2
    assert os.path.exists(os.path.join(old, 'dumps', 'pool.gz'))
    raw = unpack('diag_ws_store')
    code, a, err = run('passes', raw, '--json', '--changes')
    assert code == 0, err
    code, b, err = run('passes', old, '--json', '--changes')
    assert code == 0 and 'damaged' not in err, err
    a, b = pass_facts(a), pass_facts(b)
    # Its manifest lists 32 MLIR dumps and 4 LLVM-side WarpSpec dumps: at
    # least 32 passes and steps, the same as the raw capture's.
    assert len(b) >= 32 and a == b, (len(a), len(b))


# inductor_autotune: torch.compile(mode="max-autotune") of one 64x64 fp16
# matmul, Inductor's Triton template only.  stderr.txt lines 8-17, the
# "AUTOTUNE mm(64x64, 64x64)" table Inductor printed (its ten fastest of 16
# choices, ms rounded to 4 places), as (BLOCK_M, BLOCK_N, BLOCK_K,
# num_stages, num_warps): ms.  The first is the one Inductor chose.
INDUCTOR_AUTOTUNE = {
    (64, 64, 64, 4, 8): '0.0063',  # triton_mm_15 100.0%
    (64, 64, 64, 5, 8): '0.0069',
    (64, 64, 32, 2, 8): '0.0071',
    (32, 64, 32, 5, 8): '0.0073',
    (64, 64, 32, 3, 4): '0.0073',
    (64, 64, 16, 2, 4): '0.0078',
    (64, 64, 64, 3, 8): '0.0079',
    (32, 32, 64, 2, 4): '0.0084',
    (64, 32, 32, 5, 8): '0.0191',
    (64, 32, 64, 5, 4): '0.0196',
}


@test
def inductor_max_autotune_timings_are_the_printed_ones():
    """Every one of the 16 benchmarked compiles (compiles/ holds 16
    triton_mm files of pid 512) has its own pass dumps, and a time: the ten
    Inductor printed are those shown, its choice the winner."""
    d = unpack('inductor_autotune')
    r, err = run_json('configs', d)
    assert [g['kernel'] for g in r['groups']] == ['triton_mm'], err
    rows = r['groups'][0]['configs']
    assert len(rows) == 16 and all(row['ms'] is not None for row in rows), rows
    shown = {}
    for row in rows:
        apart = dict(x.split('=') for x in row['apart'].split(', '))
        key = (int(apart['BLOCK_M']), int(apart['BLOCK_N']), int(apart['BLOCK_K']),
               row['num_stages'], row['num_warps'])
        assert key not in shown, key
        shown[key] = row
    for key, ms in INDUCTOR_AUTOTUNE.items():
        assert '%.4f' % shown[key]['ms'] == ms, (key, shown[key]['ms'], ms)
    win = [row for row in rows if row['winner']]
    assert len(win) == 1 and win[0] is shown[(64, 64, 64, 4, 8)], win
    # Its timings file has 16 entries, all "kernel": "triton_mm", none
    # "extern" (the program asked for Triton templates only).
    assert r['groups'][0]['extern_winner'] is None, r['groups'][0]['extern_winner']
    # Each compile's dumps are its own file's: "IR Dump" headers counted here.
    info, _ = run_json('info', d)
    files = os.listdir(os.path.join(d, 'compiles'))
    mm = [k for k in info['kernels'] if k['name'] == 'triton_mm']
    assert len(mm) == 16
    for k in mm:
        mine = [f for f in files if f.startswith(k['hash']) and f.endswith('.txt')]
        assert len(mine) == 1, (k['hash'], mine)
        with open(os.path.join(d, 'compiles', mine[0]), encoding='utf-8',
                  errors='replace') as f:
            headers = sum('IR Dump' in ln for ln in f)
        assert [(p['dumps'], p['shared_by']) for p in k['passes']] == [(headers, 0)], \
            (k['hash'], k['passes'], headers)


def with_extern(entries):
    """A copy of inductor_autotune whose timings file also has ENTRIES
    (Inductor's extern choices, as the hook writes them), Inductor's choice
    moved to the first of them that says "best"."""
    src = unpack('inductor_autotune')
    dst = os.path.join(TMP, 'inductor-extern-%d' % len(os.listdir(TMP)))
    shutil.copytree(src, dst, symlinks=True)
    path = os.path.join(dst, 'autotune_timings.json')
    t = json.load(open(path))
    if any(e.get('best') for e in entries):
        for e in t['configs']:
            e['best'] = False
    t['configs'] += entries
    json.dump(t, open(path, 'w'))
    return dst


def extern(name, ms, op='mm', best=False):
    return {'kernel': name, 'kwargs': {}, 'ms': [ms], 'best': best, 'source': 'inductor',
            'op': op, 'choice': name, 'extern': True}


@test
def inductor_extern_winner_is_shown():
    """When aten's mm (an extern choice of the same op) beat every Triton
    compile, the table says so and stars no compile; the fastest compile
    (64, 64, 64, stages 4, warps 8: 0.0063 ms in Inductor's table) is what
    the rows part from.  A slower extern, or a fast one of another op,
    changes nothing."""
    d = with_extern([extern('mm', 0.0051, best=True), extern('addmm', 0.001, op='addmm')])
    r, err = run_json('configs', d)
    g = r['groups'][0]
    assert g['extern_winner'] == {'name': 'mm', 'ms': 0.0051}, g['extern_winner']
    assert not any(row['winner'] for row in g['configs']), [row['winner'] for row in g['configs']]
    fastest = [row for row in g['configs'] if row['first_divergence'] == '(fastest compile)']
    assert len(fastest) == 1 and '%.4f' % fastest[0]['ms'] == '0.0063', fastest
    code, text, err = run('configs', d)
    assert code == 0, err
    assert 'winner: the extern kernel mm, 0.0051 ms' in text, text[:400]
    assert not any(ln.startswith('  *') for ln in text.splitlines()), text[:400]
    out = os.path.join(TMP, 'extern-report')
    code, _, err = run('--html', out, d, '-q')
    assert code == 0, err
    page = open(os.path.join(out, 'configs.html')).read()
    assert 'Winner: the extern kernel mm, 0.0051 ms' in page and 'class="winner"' not in page
    # Slower than the fastest compile: the compile wins.
    d = with_extern([extern('mm', 0.05)])
    r, err = run_json('configs', d)
    g = r['groups'][0]
    assert g['extern_winner'] is None, g['extern_winner']
    win = [row for row in g['configs'] if row['winner']]
    assert len(win) == 1 and '%.4f' % win[0]['ms'] == '0.0063', win


@test
def inductor_own_triton_cache_is_read():
    """A program that sets Inductor's force_disable_caches has Inductor
    compile into a Triton cache of its own (inductor/tmpXXXX/triton/HASH/,
    as a first capture of inductor_autotune.py did), not run/cache/: its
    kernel_dump/ then has 9 folders for the 16 triton_mm compiles (Triton
    names them by the source's hash; ls kernel_dump | wc -l), so only that
    cache tells them apart.  The sample's cache/ moved there: the same 17
    kernels, each with its own dumps."""
    d = unpack('inductor_autotune')
    moved = os.path.join(d, 'inductor', 'tmpforcedisabled', 'triton')
    os.makedirs(os.path.dirname(moved))
    os.rename(os.path.join(d, 'cache'), moved)
    try:
        assert len(os.listdir(os.path.join(d, 'kernel_dump'))) == 9
        info, err = run_json('info', d)
    finally:
        os.rename(moved, os.path.join(d, 'cache'))
        os.rmdir(os.path.dirname(moved))
    mm = [k for k in info['kernels'] if k['name'] == 'triton_mm']
    assert len(mm) == 16 and len(info['kernels']) == 17, [k['hash'][:8] for k in mm]
    assert all(len(k['passes']) == 1 and k['passes'][0]['shared_by'] == 0 for k in mm), mm
    assert 'equally well' not in err, err


try:
    finish_code = finish()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
sys.exit(finish_code)
