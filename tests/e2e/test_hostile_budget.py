#!/usr/bin/env python3
"""A stranger's bundle, second round (issue 27): bounded in total.

Every bomb is generated here at test time, small on disk (sparse files, gzip
streams written a block at a time), from the sample bundle
sample_dumps/vector_add, and every command runs in a child limited in
address space (CHILD_AS) and CPU time (CPU_S): a regression fails the test
instead of eating the machine.  The bound on a hang is in CPU seconds, not
wall-clock ones, so that it means the same on a machine shared by many
builds: the slowest case (4100 kernels) takes 41 s of CPU under
AddressSanitizer, and at a load average of 30 on 2 cores a 120 s wall-clock
bound killed it.  HANG_S only catches a child blocked without using the CPU.
Prints TAP.

Usage: test_hostile_budget.py TKVIEW   (TK_TEST_SAMPLES)
"""
import gzip
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import Skip, finish, run as run_case  # noqa: E402

TKVIEW = os.path.abspath(sys.argv[1])
SAMPLE = os.path.join(os.environ['TK_TEST_SAMPLES'], 'vector_add')
KDIR = 'add_kernel-faf6139b'
CPU_S = 300   # CPU seconds: 7 times the slowest case under AddressSanitizer
HANG_S = 1200  # wall-clock seconds, for a child that waits on something forever
CHILD_AS = 2 << 30  # bytes of address space; the budget keeps a load far under it
ENV = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}


def test(fn):
    def in_tempdir():
        with tempfile.TemporaryDirectory() as d:
            fn(d)
    run_case(fn.__name__, in_tempdir)
    return fn


# AddressSanitizer reserves terabytes of shadow address space at start-up, so
# a sanitized tkview cannot run under RLIMIT_AS: there the bound is checked
# after the fact, on the children's peak resident memory (still far under
# CHILD_AS for a load the budget stops, and far over it for one it does not).
with open(TKVIEW, 'rb') as _f:
    SANITIZED = b'__asan_init' in _f.read()


def limits():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_S, CPU_S))
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (CHILD_AS, CHILD_AS))


def run(*args):
    """(exit status, stdout, stderr) of TKVIEW ARGS, bounded in memory and time."""
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, timeout=HANG_S, env=ENV,
                       preexec_fn=limits)
    assert p.returncode != -signal.SIGXCPU, 'tkview %s: over %d s of CPU time' % (' '.join(args), CPU_S)
    if SANITIZED:
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        assert peak < CHILD_AS, 'tkview %s: peak memory %d MiB' % (' '.join(args), peak >> 20)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def bundle(d, name='b'):
    b = os.path.join(d, name)
    shutil.copytree(SAMPLE, b, symlinks=True)
    return b


def manifest(b):
    with open(os.path.join(b, 'manifest.json')) as f:
        return json.load(f)


def write_manifest(b, m):
    with open(os.path.join(b, 'manifest.json'), 'w') as f:
        json.dump(m, f)


def gzip_stream(path, pieces):
    """Writes the gzip of the concatenated PIECES (an iterable of bytes)."""
    with gzip.open(path, 'wb', compresslevel=9) as f:
        for p in pieces:
            f.write(p)


@test
def manifest_linked_out_is_not_read(d):
    b = bundle(d)
    elsewhere = bundle(d, 'elsewhere')
    os.remove(os.path.join(b, 'manifest.json'))
    os.symlink(os.path.join(elsewhere, 'manifest.json'), os.path.join(b, 'manifest.json'))
    code, out, err = run('info', b)
    assert 'manifest.json: warning: not read: a symbolic link out of the bundle' in err, err
    os.remove(os.path.join(b, 'manifest.json'))
    os.symlink('/etc/passwd', os.path.join(b, 'manifest.json'))
    for args in (['info', b], ['info', os.path.join(b, 'manifest.json')]):
        code, out, err = run(*args)
        assert 'root:' not in out + err, (args, out, err)
        assert 'not read: a symbolic link out of the bundle' in err, (args, err)
    csv = os.path.join(d, 'p.csv')
    with open(csv, 'w') as f:
        f.write('"Address","Source"\n')
    code, out, err = run('profile', 'import', b, csv)
    assert code != 0 and 'root:' not in out + err, (code, out, err)


@test
def zero_kernels_is_a_failure(d):
    b = bundle(d)
    m = manifest(b)
    m['kernels'] = []
    write_manifest(b, m)
    for args in (['info', b], ['--html', os.path.join(d, 'r'), b],
                 ['bundle', b, '-o', os.path.join(d, 'o')]):
        code, out, err = run(*args)
        assert code != 0 and 'no kernel could be loaded' in err, (args, code, out, err)
    assert not os.path.exists(os.path.join(d, 'r')) and not os.path.exists(os.path.join(d, 'o'))
    assert [x for x in os.listdir(d) if x.startswith('.')] == [], os.listdir(d)


@test
def c1_controls_and_invalid_utf8_are_escaped(d):
    b = bundle(d)
    m = manifest(b)
    m['kernels'][0]['name'] = 'add\u009b2J\u009d0;x\u0007_kernel'
    write_manifest(b, m)
    # a raw 0x9b byte (not UTF-8) in the manifest: a C1 CSI to an 8-bit terminal
    with open(os.path.join(b, 'manifest.json'), 'rb') as f:
        raw = f.read().replace(b'"complete": null', b'"complete": null, "x": "\\u0000"')
    code, out, err = run('info', b)
    for text in (out, err):
        assert '\u009b' not in text and '\u009d' not in text, text
    assert 'add\\xc2\\x9b2J\\xc2\\x9d0;x\\x07_kernel' in out, out
    stage = os.path.join(b, KDIR, 'add_kernel.ttir')
    with open(stage, 'ab') as f:
        f.write(b'// \x9b2J raw\n')
    code, out, err = run('bind', b, '--ir', 'ttir:1')
    assert b'\x9b' not in out.encode('utf-8', 'surrogateescape'), out
    del raw


@test
def the_same_gigabyte_named_eight_times(d):
    """Eight kernels naming one sparse 1 GiB stage file: the load's budget of
    files read whole refuses it by its size, before reading it."""
    b = bundle(d)
    big = os.path.join(b, KDIR, 'big.ttgir')
    with open(big, 'wb') as f:
        f.truncate(1 << 30)
    m = manifest(b)
    k = m['kernels'][0]
    ks = []
    for i in range(8):
        c = json.loads(json.dumps(k))
        c['hash'] = '%064x' % (i + 1)
        c['stages']['ttgir'] = KDIR + '/big.ttgir'
        ks.append(c)
    m['kernels'] = ks
    write_manifest(b, m)
    code, out, err = run('info', b)
    assert 'big.ttgir' in err and 'over the load' in err, err
    code, out, err = run('--html', os.path.join(d, 'r'), b)
    assert 'big.ttgir' in err, err
    assert [x for x in os.listdir(d) if x.startswith('.')] == [], os.listdir(d)


def pass_dump_header(i):
    return ('// -----// IR Dump Before Pass%d (p%d) ('
            'builtin.module) //----- //\nmodule {\n}\n' % (i, i)).encode()


@test
def millions_of_tiny_dumps(d):
    b = bundle(d)
    mlir = os.path.join(b, KDIR, 'passes', 'mlir.txt.gz')
    gzip_stream(mlir, (b''.join(pass_dump_header(i) for i in range(j, j + 10000))
                       for j in range(0, 400000, 10000)))
    code, out, err = run('info', b)
    assert 'not indexed from this line on: over the load' in err and 'pass dumps' in err, err
    assert 'mlir.txt.gz' in err, err


@test
def newline_bomb(d):
    b = bundle(d)
    mlir = os.path.join(b, KDIR, 'passes', 'mlir.txt.gz')
    chunk = b'\n' * (16 << 20)
    gzip_stream(mlir, [pass_dump_header(0)] + [chunk] * 4)
    code, out, err = run('info', b)
    assert 'not indexed past this line: over the load' in err and 'lines' in err, err
    code, out, err = run('passes', b)
    assert code in (0, 1), (code, err)


@test
def a_stage_of_short_lines(d):
    """Millions of lines in a stage file read whole: refused by the budget of
    lines before their records are made."""
    b = bundle(d)
    with open(os.path.join(b, KDIR, 'add_kernel.ttir'), 'wb') as f:
        f.write(b'\n' * (40 << 20))
    code, out, err = run('info', b)
    assert 'add_kernel.ttir' in err and 'lines not indexed: over the load' in err, err


@test
def a_manifest_of_too_many_kernels(d):
    b = bundle(d)
    m = manifest(b)
    k = m['kernels'][0]
    m['kernels'] = [{'name': 'add_kernel', 'hash': '%064x' % (i + 1), 'folder': k['folder'],
                     'stages': {'ttir': k['stages']['ttir']}} for i in range(4100)]
    write_manifest(b, m)
    code, out, err = run('info', b, '--json')
    assert '4100 kernels, over the load\'s budget of 4096 kernels: the first 4096 are loaded, 4 left out' in err, err
    assert len(json.loads(out)['kernels']) == 4096


@test
def a_special_file_where_a_source_should_be_is_named(d):
    b = bundle(d)
    src = os.path.join(b, 'sources', '0000-vector_add.py')
    os.remove(src)
    os.mkfifo(src)
    code, out, err = run('bundle', b, '-o', os.path.join(d, 'o'))
    assert '0000-vector_add.py' in err and 'FIFO' in err, err


@test
def a_full_disk_while_a_source_is_copied_is_an_error(d):
    """A bundle written onto a small tmpfs with room for everything but its
    source: an error, and no bundle (needs mount rights, else skipped)."""
    b = bundle(d)
    src = os.path.join(b, 'sources', '0000-vector_add.py')
    with open(src, 'a') as f:
        f.write(('#' * 99 + '\n') * 40000)  # 4 MB of comments
    mnt = os.path.join(d, 'mnt')
    os.mkdir(mnt)
    if subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mnt],
                      stderr=subprocess.DEVNULL).returncode != 0:
        raise Skip('cannot mount a small tmpfs here')
    try:
        code, out, err = run('bundle', b, '-o', os.path.join(mnt, 'o'))
        assert code != 0 and 'cannot write the bundle' in err, (code, err)
        assert 'No space left on device' in err, err
        assert os.listdir(mnt) == [], os.listdir(mnt)
    finally:
        subprocess.run(['umount', mnt])


@test
def leftovers_of_a_killed_run_are_cleaned_by_the_next(d):
    dead = subprocess.Popen(['true'])
    dead.wait()
    def staging(name, marker):
        p = os.path.join(d, name)
        os.mkdir(p)
        with open(os.path.join(p, 'keep'), 'w') as f:
            f.write('x')
        if marker is not None:
            with open(os.path.join(p, '.tkview-staging'), 'w') as f:
                f.write(marker)
        return p
    gone = staging('.r.tkview-tmp-a1b2c3', '%d\n' % dead.pid)
    no_marker = staging('.r.tkview-tmp-d4e5f6', None)
    alive = staging('.r.tkview-tmp-g7h8i9', '%d\n' % os.getpid())
    other = staging('.other.tkview-tmp-j1k2l3', '%d\n' % dead.pid)
    code, out, err = run('--html', os.path.join(d, 'r'), bundle(d))
    assert code == 0, err
    assert not os.path.exists(gone)
    for p in (no_marker, alive, other):
        assert os.path.isfile(os.path.join(p, 'keep')), p
    assert not os.path.exists(os.path.join(d, 'r', '.tkview-staging'))


@test
def profile_rows_of_the_wrong_shape_are_refused(d):
    b = os.path.join(d, 'mp')
    shutil.copytree(os.path.join(os.path.dirname(SAMPLE), 'matmul_profile'), b, symlinks=True)
    with gzip.open(os.path.join(b, 'ncu', 'source_sass.csv.gz'), 'rt') as f:
        lines = f.read().split('\n')
    # line 4 (the second row) loses its last column
    lines[3] = lines[3].rsplit(',', 1)[0]
    csv = os.path.join(d, 'cut.csv')
    with open(csv, 'w') as f:
        f.write('\n'.join(lines))
    code, out, err = run('profile', 'import', b, csv, '--force')
    assert code != 0 and 'cut.csv:4: error: a row of' in err and 'refused' in err, (code, err)


finish()
