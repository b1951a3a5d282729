#!/usr/bin/env python3
"""tkview hot's live registers and spills on the raw H200 captures
(sample_dumps/raw), checked against an independent reading of nvdisasm's
own text.

The independent reading is this file's own and shares nothing with
tkview: NAME.sass_gi (`nvdisasm -c -gi`) places each instruction on the
line of the last `//## File "P", line N` comment above it (its innermost
frame); NAME.sass_lr (`nvdisasm --print-life-ranges --life-range-mode
count -c`) gives the GPR count in the first cell of the `// | ... |` table
after the instruction (an empty cell is 0).  For every source line,
`hot --metric live_registers --json --top 0` must give as `exact` the
largest count over the instructions on that line, and `--metric
spill_bytes` the bytes of its LDL/STL (4, .64: 8, .128: 16).  Numbers read
by hand are quoted with the rows they come from.

Usage: test_regs_cli.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps)
Prints TAP.
"""
import collections
import glob
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
RAW = os.path.join(os.environ['TK_TEST_SAMPLES'], 'raw')
TMP = tempfile.mkdtemp(prefix='regs-')
# No nvdisasm of this machine's is run (the tests that make life ranges
# name a fake one), and tkview's cache is this test's own.
ENV = {k: v for k, v in os.environ.items()
       if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}
ENV.update(TKVIEW_NVDISASM='none', XDG_CACHE_HOME=os.path.join(TMP, 'cache'))


def run(*args, env=None):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300, env=env or ENV)
    return (p.returncode, p.stdout.decode('utf-8', 'replace'),
            p.stderr.decode('utf-8', 'replace'))


def run_json(*args):
    code, out, err = run(*args, '--json')
    assert code == 0, (code, err)
    return json.loads(out)


def unpack(name):
    """The capture's kernel_dump, cache and src folders (the rest, mostly
    LLVM's print-after-all, is hundreds of MiB)."""
    subprocess.run(['tar', 'xJf', os.path.join(RAW, name + '.tar.xz'), '-C', TMP,
                    '--wildcards', '*/kernel_dump/*', '*/cache/*', '*/src/*'],
                   check=True)
    return os.path.join(TMP, name)


# ---- the independent reading --------------------------------------------

OFFSET = re.compile(r'/\*([0-9a-f]{4,})\*/\s+(\S.*?)\s*;')
FRAME = re.compile(r'//## File "([^"]+)", line (\d+)')


def gi_lines(path):
    """offset -> (file, line) of the innermost frame, and offset -> opcode."""
    where, ops, cur = {}, {}, None
    with open(path, encoding='utf-8') as f:
        for ln in f:
            m = FRAME.search(ln)
            if m:
                cur = (m.group(1), int(m.group(2)))
                continue
            m = OFFSET.search(ln)
            if m:
                off = int(m.group(1), 16)
                ops[off] = m.group(2).split()[0] if not m.group(2).startswith('@') \
                    else m.group(2).split()[1]
                if cur:
                    where[off] = cur
    return where, ops


def lr_gpr(path):
    """offset -> the GPR count of the row."""
    gpr = {}
    with open(path, encoding='utf-8') as f:
        for ln in f:
            m = OFFSET.search(ln)
            if not m or '// |' not in ln:
                continue
            cell = ln.rsplit('// |', 1)[1].split('|')[0].strip()
            gpr[int(m.group(1), 16)] = int(cell) if cell else 0
    return gpr


def local_bytes(op):
    """Bytes per thread of a local-memory load or store: 4, or its width
    modifier's."""
    parts = op.split('.')
    if parts[0] not in ('LDL', 'STL'):
        return 0
    size = {'U8': 1, 'S8': 1, 'U16': 2, 'S16': 2, '64': 8, '128': 16}
    widths = [size[p] for p in parts[1:] if p in size]
    return widths[0] if widths else 4


def expected(folder):
    """(file, line) -> (peak GPR, spill bytes) for the kernel in FOLDER."""
    gi = glob.glob(os.path.join(folder, '*.sass_gi'))[0]
    where, ops = gi_lines(gi)
    gpr = lr_gpr(gi[:-len('.sass_gi')] + '.sass_lr')
    peak, spill = {}, collections.Counter()
    for off, pos in where.items():
        peak[pos] = max(peak.get(pos, 0), gpr.get(off, 0))
        spill[pos] += local_bytes(ops[off])
    return peak, spill


def hot(path, name, metric):
    """The lines of kernel NAME (the one with SASS) by (file, line), and
    the kernel's object."""
    d = run_json('hot', path, '--metric', metric, '--top', '0')
    (k,) = [k for k in d['kernels'] if k['name'] == name]
    return {(ln['file'], ln['line']): ln for ln in k['lines']}, k


# ---- the tests -----------------------------------------------------------

REMARKS = unpack('diag_remarks')
FP8 = unpack('fp8_matmul_three')
KERNELS = []  # (capture, kernel dump folder, kernel name)
for cap in (REMARKS, FP8):
    for gi in sorted(glob.glob(os.path.join(cap, 'kernel_dump', '*', '*.sass_gi'))):
        KERNELS.append((cap, os.path.dirname(gi),
                        os.path.basename(gi)[:-len('.sass_gi')]))


def by_hash(cap):
    """kernel dump folder -> hash prefix of the kernel whose SASS is there
    (autotune configs and warp-specialized compiles share a name)."""
    code, out, err = run('info', cap, '--json')
    assert code == 0, err
    got = {}
    for k in json.loads(out)['kernels']:
        sass = (k['stages'].get('sass') or {}).get('path')
        if sass:
            got[os.path.dirname(sass)] = k['hash'][:12]
    return got


@test
def every_raw_capture_line_peak_and_spills():
    """The same reading over every kernel of autotune_matmul (five configs,
    wgmma) and ws_matmul (warp-specialized and plain persistent TMA
    matmuls), kernels picked by hash."""
    n = 0
    for name in ('autotune_matmul', 'ws_matmul'):
        cap = unpack(name)
        hashes = by_hash(cap)
        for gi in sorted(glob.glob(os.path.join(cap, 'kernel_dump', '*', '*.sass_gi'))):
            folder = os.path.dirname(gi)
            peak, spill = expected(folder)
            for metric, want in (('live_registers', peak), ('spill_bytes', spill)):
                d = run_json('hot', cap, '--kernel', hashes[folder], '--metric',
                             metric, '--top', '0')
                (k,) = d['kernels']
                got = {(ln['file'], ln['line']): ln['exact'] for ln in k['lines']}
                for pos, v in want.items():
                    assert got.get(pos, 0) == v, (gi, metric, pos, got.get(pos), v)
            n += 1
    assert n >= 6, n


@test
def live_registers_exact_is_the_line_peak():
    """exact live_registers is the peak GPR count of the line's instructions"""
    for cap, folder, name in KERNELS:
        peak, _ = expected(folder)
        got, _ = hot(cap, name, 'live_registers')
        assert len(peak) >= 4, (name, peak)
        for pos, v in peak.items():
            assert pos in got or v == 0, (name, pos)
            if v == 0:
                continue
            assert got[pos]['exact'] == v, (name, pos, got[pos]['exact'], v)
        for pos, ln in got.items():
            if pos not in peak:  # only a caller of inlined code
                assert ln['exact'] == 0, (name, pos, ln)


@test
def live_registers_inclusive_is_a_peak():
    """inclusive live_registers is a peak too: at least exact, at most the kernel's"""
    for cap, folder, name in KERNELS:
        got, k = hot(cap, name, 'live_registers')
        top = k['total']['live_registers']
        assert top == max(lr_gpr(glob.glob(os.path.join(folder, '*.sass_lr'))[0]).values())
        for pos, ln in got.items():
            assert ln['exact'] <= ln['inclusive'] <= top, (name, pos, ln)
        # the kernel's own lines call everything: some line reaches the peak
        assert max(ln['inclusive'] for ln in got.values()) == top


@test
def read_by_hand():
    """read by hand: spill_rows_kernel lines 33 and 36, fp8_matmul_kernel lines 30 and 44"""
    # spill_rows_kernel.sass_gi: line 33 (the def) has one instruction,
    #   /*0000*/ LDC R1, c[0x0][0x28] ;   .sass_lr: // |   1   |        |        |
    # line 36 (offs = rows[:, None] * n_cols + cols[None, :]) has 64; the
    # largest GPR cells are 53, at /*11d0*/ IMAD R15, R28, UR4, R10.reuse
    # and /*11e0*/ IMAD R14, R29, UR4, R10.
    folder = glob.glob(os.path.join(REMARKS, 'kernel_dump', '*', 'spill_rows_kernel.sass_gi'))[0]
    got, _ = hot(REMARKS, 'spill_rows_kernel', 'live_registers')
    src = [p for p in got if p[0].endswith('diag_remarks.py')][0][0]
    assert got[(src, 33)]['exact'] == 1
    assert got[(src, 36)]['exact'] == 53
    # fp8_matmul_kernel.sass_gi: line 30 (pid_m) is /*0090*/ S2R, GPR cell 5;
    # line 44 (bias = tl.load(...)) is /*16f0*/ 135, /*1720*/ 137,
    # /*1730*/ 138, /*17a0*/ 141: peak 141.
    fp8 = [k for k in KERNELS if k[0] == FP8][0]
    got, _ = hot(FP8, fp8[2], 'live_registers')
    src = [p for p in got if p[0].endswith('fp8_matmul_three.py')][0][0]
    assert got[(src, 30)]['exact'] == 5
    assert got[(src, 44)]['exact'] == 141
    del folder


@test
def spill_bytes_per_line():
    """spill_bytes per line: every LDL/STL of the line, by its width"""
    for cap, folder, name in KERNELS:
        _, spill = expected(folder)
        got, _ = hot(cap, name, 'spill_bytes')
        assert sum(spill.values()) == 0 or name == 'spill_rows_kernel' or \
            name == 'serialized_dot_kernel', (name, spill)
        for pos, v in spill.items():
            # hot lists the lines with a value; the others have none
            e = got[pos]['exact'] if pos in got else 0
            assert e == v, (name, pos, e, v)
    # by hand: line 36 of spill_rows_kernel has 19 STL and 6 STL.64
    # (grep of its 64 instructions): 19 * 4 + 6 * 8 = 124 bytes
    got, _ = hot(REMARKS, 'spill_rows_kernel', 'spill_bytes')
    src = [p for p in got if p[0].endswith('diag_remarks.py')][0][0]
    assert got[(src, 36)]['exact'] == 124


@test
def bundle_keeps_sass_lr():
    """a bundle keeps NAME.sass_lr beside the cubin (format 4: as
    NAME.sass_lr.zst, named by the manifest) and gives the same numbers"""
    out = os.path.join(TMP, 'bundle')
    code, _, err = run('bundle', REMARKS, '-o', out)
    assert code == 0, err
    lrs = glob.glob(os.path.join(out, '*', '*.sass_lr.zst'))
    assert len(lrs) == 3, lrs
    for lr in lrs:
        stem = lr[:-len('.sass_lr.zst')]
        assert os.path.exists(stem + '.cubin') or os.path.exists(stem + '.cubin.zst'), lr
    with open(os.path.join(out, 'manifest.json')) as f:
        named = sorted(os.path.join(out, k['files']['sass_lr'])
                       for k in json.load(f)['kernels'])
    assert named == sorted(lrs), (named, lrs)
    a, _ = hot(REMARKS, 'spill_rows_kernel', 'live_registers')
    b, _ = hot(out, 'spill_rows_kernel', 'live_registers')
    assert {p[1]: v['exact'] for p, v in a.items()} == \
        {p[1]: v['exact'] for p, v in b.items()}


SAMPLES = os.environ['TK_TEST_SAMPLES']


@test
def sample_bundles_with_sass_lr():
    """The bundles of sample_dumps that carry NAME.sass_lr (made from their
    cubins by Triton's nvdisasm, the manifest's capture.life_ranges_*):
    every line's peak is the independent reading's.  By hand:
    matmul_pipelined.sass_lr line 704, /*2ac0*/ SEL R204, RZ, 0x10, P6,
    GPR cell 216, the largest of the file; matmul_pipelined.sass_gi puts
    /*2ac0*/ under //## File ".../matmul_profile.py", line 53."""
    n = 0
    for lr in sorted(glob.glob(os.path.join(SAMPLES, '*', '*', '*.sass_lr'))):
        bundle = os.path.dirname(os.path.dirname(lr))
        folder = os.path.dirname(lr)
        name = os.path.basename(lr)[:-len('.sass_lr')]
        with open(os.path.join(bundle, 'manifest.json')) as f:
            cap = json.load(f)['capture']
        assert cap['life_ranges_tool'].endswith('/triton/backends/nvidia/bin/nvdisasm'), cap
        assert cap['life_ranges_flags'] == '--print-life-ranges --life-range-mode count -c'
        peak, _ = expected(folder)
        got, k = hot(bundle, name, 'live_registers')
        for pos, v in peak.items():
            if v:
                assert got[pos]['exact'] == v, (lr, pos, got.get(pos), v)
        assert k['total']['live_registers'] == max(lr_gpr(lr).values()), (lr, k['total'])
        n += 1
    assert n >= 4, n  # fused_softmax, layer_norm_gelu (2), matmul_profile
    got, k = hot(os.path.join(SAMPLES, 'matmul_profile'), 'matmul_pipelined', 'live_registers')
    assert k['total']['live_registers'] == 216, k['total']
    [line53] = [ln for p, ln in got.items() if p[1] == 53 and p[0].endswith('matmul_profile.py')]
    assert line53['exact'] == 216, line53


@test
def without_sass_lr():
    """without NAME.sass_lr: live_registers is missing and the error says how to make it"""
    folder = os.path.join(TMP, 'nolr')
    shutil.copytree(os.path.dirname(glob.glob(os.path.join(
        REMARKS, 'kernel_dump', '*', 'spill_rows_kernel.sass_gi'))[0]), folder)
    os.remove(os.path.join(folder, 'spill_rows_kernel.sass_lr'))
    code, out, err = run('hot', folder, '--metric', 'live_registers')
    assert code != 0, out
    assert 'live_registers' in err and 'sass_lr' in err, err
    assert 'nvdisasm --print-life-ranges --life-range-mode count' in err, err
    # the static metrics still work
    code, out, err = run('hot', folder, '--metric', 'spill_bytes')
    assert code == 0, err


def fake_nvdisasm(path, lr):
    """A stand-in nvdisasm: the real life-range text LR for exactly the
    arguments tkview must give (`--print-life-ranges --life-range-mode
    count -c X/spill_rows_kernel.cubin`), a refusal for anything else."""
    with open(path, 'w') as f:
        f.write('#!/bin/sh\n'
                'if [ "$1 $2 $3 $4" = "--print-life-ranges --life-range-mode count -c" ]; then\n'
                '  case "$5" in *spill_rows_kernel.cubin) exec cat "%s";; esac\n'
                'fi\n'
                'echo "fake nvdisasm: not these arguments: $*" >&2; exit 3\n' % lr)
    os.chmod(path, 0o755)
    return path


@test
def life_ranges_made_with_nvdisasm_into_the_cache():
    """A folder without NAME.sass_lr: hot, info and bind have nvdisasm
    (TKVIEW_NVDISASM, a fake printing the capture's real .sass_lr) make
    it, into $XDG_CACHE_HOME/tkview/sass_lr/SHA256-OF-CUBIN.sass_lr, never
    into the folder; the second run reads the cache; line 36's peak is 53
    (read_by_hand)."""
    import hashlib
    src = os.path.dirname(glob.glob(os.path.join(
        REMARKS, 'kernel_dump', '*', 'spill_rows_kernel.sass_gi'))[0])
    folder = os.path.join(TMP, 'made')
    shutil.copytree(src, folder)
    os.remove(os.path.join(folder, 'spill_rows_kernel.sass_lr'))
    os.chmod(folder, 0o555)  # a stranger's folder: read-only
    before = sorted(os.listdir(folder))
    cache = os.path.join(TMP, 'cache-made')
    env = dict(ENV, XDG_CACHE_HOME=cache,
               TKVIEW_NVDISASM=fake_nvdisasm(os.path.join(TMP, 'nvdisasm-fake'),
                                             os.path.join(src, 'spill_rows_kernel.sass_lr')))
    code, out, err = run('hot', folder, '--metric', 'live_registers', '--json',
                         '--top', '0', env=env)
    assert code == 0, err
    assert 'made the register life ranges of 1 kernel with ' in err, err
    lines = {ln['line']: ln['exact'] for ln in json.loads(out)['kernels'][0]['lines']}
    assert lines[36] == 53 and lines[33] == 1, lines
    assert sorted(os.listdir(folder)) == before
    with open(os.path.join(folder, 'spill_rows_kernel.cubin'), 'rb') as f:
        key = hashlib.sha256(f.read()).hexdigest()
    made = os.path.join(cache, 'tkview', 'sass_lr', key + '.sass_lr')
    with open(made) as a, open(os.path.join(src, 'spill_rows_kernel.sass_lr')) as b:
        assert a.read() == b.read()
    # again, with no nvdisasm at all: the cache answers, nothing is said
    env['TKVIEW_NVDISASM'] = 'none'
    code, out, err = run('info', folder, '--json', env=env)
    assert code == 0, err
    assert 'nvdisasm' not in err, err
    (k,) = json.loads(out)['kernels']
    assert k['cost']['registers']['peak']['gpr'] == 62, k['cost']['registers']
    os.chmod(folder, 0o755)


@test
def cache_key_remembered_by_stat_never_stale():
    """The cache's key (the cubin's SHA-256) is remembered in
    $XDG_CACHE_HOME/tkview/sass_lr/stat/DEV-INODE with the cubin's path and
    stat (life_ranges.c), once the cubin is settled (ctime 2 s old): a run
    with the same stat takes the sum from there; a cubin written again, even
    with its size and mtime kept, is hashed again."""
    import hashlib
    import time
    src = os.path.dirname(glob.glob(os.path.join(
        REMARKS, 'kernel_dump', '*', 'spill_rows_kernel.sass_gi'))[0])
    folder = os.path.join(TMP, 'statmemo')
    shutil.copytree(src, folder)
    os.remove(os.path.join(folder, 'spill_rows_kernel.sass_lr'))
    cubin = os.path.join(folder, 'spill_rows_kernel.cubin')
    # wait (on the file's state, bounded) until the copy is settled
    deadline = time.time() + 120
    while time.time() - os.stat(cubin).st_ctime < 2.5 and time.time() < deadline:
        time.sleep(0.2)
    cache = os.path.join(TMP, 'cache-stat')
    env = dict(ENV, XDG_CACHE_HOME=cache,
               TKVIEW_NVDISASM=fake_nvdisasm(os.path.join(TMP, 'nvdisasm-stat'),
                                             os.path.join(src, 'spill_rows_kernel.sass_lr')))
    code, out, err = run('info', folder, '--json', env=env)
    assert code == 0 and 'made the register life ranges of 1 kernel' in err, err
    with open(cubin, 'rb') as f:
        data = f.read()
    key = hashlib.sha256(data).hexdigest()
    lr_dir = os.path.join(cache, 'tkview', 'sass_lr')
    (memo,) = glob.glob(os.path.join(lr_dir, 'stat', '*'))
    with open(memo) as f:
        lines = f.read().split('\n')
    assert lines[1] == cubin and lines[3] == key, lines
    # the remembered sum is the one used: moved to another name, with the
    # cached file, the cubin's own is never computed (no nvdisasm now)
    other = 'ab' * 32
    os.rename(os.path.join(lr_dir, key + '.sass_lr'), os.path.join(lr_dir, other + '.sass_lr'))
    with open(memo, 'w') as f:
        f.write('\n'.join(lines[:3] + [other, '']))
    env['TKVIEW_NVDISASM'] = 'none'
    code, out, err = run('info', folder, '--json', env=env)
    assert code == 0 and 'nvdisasm' not in err, err
    (k,) = json.loads(out)['kernels']
    assert k['cost']['registers']['peak']['gpr'] == 62, k['cost']['registers']
    # the same bytes written again, size and mtime kept: the ctime moved,
    # so the sum is taken again, and nothing is cached under it
    st = os.stat(cubin)
    with open(cubin, 'wb') as f:
        f.write(data)
    os.utime(cubin, ns=(st.st_atime_ns, st.st_mtime_ns))
    code, out, err = run('info', folder, '--json', env=env)
    assert code == 0, err
    assert '1 kernel has no NAME.sass_lr and no nvdisasm was found' in err, err
    (k,) = json.loads(out)['kernels']
    assert 'peak' not in k['cost']['registers'], k['cost']['registers']


@test
def no_nvdisasm_said_plainly_and_info_goes_on():
    folder = os.path.join(TMP, 'nonvd')
    shutil.copytree(os.path.dirname(glob.glob(os.path.join(
        REMARKS, 'kernel_dump', '*', 'spill_rows_kernel.sass_gi'))[0]), folder)
    os.remove(os.path.join(folder, 'spill_rows_kernel.sass_lr'))
    code, out, err = run('info', folder)
    assert code == 0, err
    assert '1 kernel has no NAME.sass_lr and no nvdisasm was found' in err, err
    assert 'spill_rows_kernel' in out, out
    # a refusing nvdisasm (CUDA 13.0's on Triton 3.6's cubins): its words
    # are shown, the command goes on
    nvd = os.path.join(TMP, 'nvd-refuses')
    with open(nvd, 'w') as f:
        f.write('#!/bin/sh\necho "nvdisasm error   : Cannot print life ranges as '
                'flow analysis is disabled" >&2\nexit 1\n')
    os.chmod(nvd, 0o755)
    code, out, err = run('info', folder, env=dict(ENV, TKVIEW_NVDISASM=nvd))
    assert code == 0, err
    assert ('nvdisasm could not make the register life ranges of 1 kernel: %s: '
            'nvdisasm error   : Cannot print life ranges' % nvd) in err, err
    assert 'spill_rows_kernel' in out, out


@test
def python_asked_once_an_hour():
    """Without TKVIEW_NVDISASM, where Triton's nvdisasm is is asked of
    python3 (a fake here, first in PATH, which counts its runs and finds
    no Triton); its answer is kept in $XDG_CACHE_HOME/tkview/python, so a
    second info asks nothing, and another PATH asks again."""
    folder = os.path.join(TMP, 'askpy')
    shutil.copytree(os.path.dirname(glob.glob(os.path.join(
        REMARKS, 'kernel_dump', '*', 'spill_rows_kernel.sass_gi'))[0]), folder)
    os.remove(os.path.join(folder, 'spill_rows_kernel.sass_lr'))
    bindir = os.path.join(TMP, 'fake-python')
    os.makedirs(bindir)
    count = os.path.join(TMP, 'python-runs.txt')
    with open(os.path.join(bindir, 'python3'), 'w') as f:
        f.write('#!/bin/sh\necho "$*" >> "%s"\n'
                'echo "ModuleNotFoundError: No module named triton" >&2\nexit 1\n' % count)
    os.chmod(os.path.join(bindir, 'python3'), 0o755)
    env = {k: v for k, v in ENV.items() if k != 'TKVIEW_NVDISASM'}
    env.update(PATH=bindir + os.pathsep + env.get('PATH', ''),
               XDG_CACHE_HOME=os.path.join(TMP, 'cache-askpy'))

    def runs():
        with open(count) as f:
            return len(f.read().splitlines())
    for _ in range(2):
        code, out, err = run('info', folder, env=env)
        assert code == 0, err
        assert 'spill_rows_kernel' in out, out
    assert runs() == 1, runs()
    kept = glob.glob(os.path.join(TMP, 'cache-askpy', 'tkview', 'python', '*.txt'))
    assert len(kept) == 1, kept
    env['PATH'] += os.pathsep + os.path.join(TMP, 'elsewhere')
    code, out, err = run('info', folder, env=env)
    assert code == 0, err
    assert runs() == 2, runs()


@test
def info_peak_and_occupancy():
    """info's registers: the kernel's peak is the largest GPR cell, at the
    first instruction that has it, on that instruction's -gi line; the
    occupancy worked by hand from ptxas's count."""
    code, out, err = run('info', REMARKS, '--json')
    assert code == 0, err
    ks = {k['name']: k for k in json.loads(out)['kernels']}
    for cap, folder, name in KERNELS:
        if cap != REMARKS:
            continue
        r = ks[name]['cost']['registers']
        gi = glob.glob(os.path.join(folder, '*.sass_gi'))[0]
        gpr = lr_gpr(gi[:-len('.sass_gi')] + '.sass_lr')
        where, _ = gi_lines(gi)
        top = max(gpr.values())
        first = min(o for o, v in gpr.items() if v == top)
        assert r['peak']['gpr'] == top, (name, r)
        assert r['peak_offset'] == first, (name, r, first)
        assert (r['peak_source']['file'], r['peak_source']['line']) == where[first]
        assert r['cubin'] >= top, r
    # spill_rows_kernel: ptxas used 64 (maxnreg=64), 4 warps per block:
    # 64 * 32 = 2048 a warp, 65536 / 2048 = 32 warps (8 blocks); 9 blocks
    # (36 warps) need <= 1820 a warp -> 1792 = 56 registers.
    occ = ks['spill_rows_kernel']['cost']['registers']['occupancy']
    assert ks['spill_rows_kernel']['cost']['registers']['cubin'] == 64
    assert (occ['warps_per_sm'], occ['next_registers'], occ['next_warps_per_sm']) \
        == (32, 56, 36), occ
    # serialized_dot_kernel: 128 -> 4096 a warp -> 16 warps; 20 warps need
    # <= 3276 -> 3072 = 96 registers.
    occ = ks['serialized_dot_kernel']['cost']['registers']['occupancy']
    assert (occ['warps_per_sm'], occ['next_registers'], occ['next_warps_per_sm']) \
        == (16, 96, 20), occ
    code, out, err = run('info', REMARKS)
    assert code == 0 and 'live registers: peak 62 (GPR)' in out, out


@test
def bind_ir_line_peak():
    """bind --ir ttgir:LINE: the peak over the SASS instructions bind lists
    for it is the largest GPR cell of those instructions (read from
    .sass_lr by their offsets)."""
    cap, folder, name = [k for k in KERNELS if k[0] == FP8][0]
    ttgir = glob.glob(os.path.join(folder, '*.ttgir'))[0]
    with open(ttgir) as f:
        dot = [i for i, ln in enumerate(f, 1) if 'ttng.warp_group_dot ' in ln][0]
    gpr = lr_gpr(glob.glob(os.path.join(folder, '*.sass_lr'))[0])
    _, k = hot(cap, name, 'live_registers')  # the compile with SASS
    code, out, err = run('bind', cap, '--kernel', k['hash'][:12], '--ir',
                         'ttgir:%d' % dot, '--json')
    assert code == 0, err
    d = json.loads(out)
    offs = [int(OFFSET.search(ln['text']).group(1), 16)
            for ln in d['stages']['sass'] if ln['kind'] == 'instruction']
    assert len(offs) > 5, offs
    assert d['live_registers']['peak'] == max(gpr[o] for o in offs), d['live_registers']
    # its SASS line holds an instruction with that count
    at = [ln for ln in d['stages']['sass'] if ln['line'] == d['live_registers']['sass_line']]
    assert at and gpr[int(OFFSET.search(at[0]['text']).group(1), 16)] == \
        d['live_registers']['peak']


try:
    status = finish()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
sys.exit(status)
