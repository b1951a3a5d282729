#!/usr/bin/env python3
"""A shared bundle is untrusted input: every command on a hostile bundle.

Each test builds its hostile bundle in its own temporary folder from the
sample bundle sample_dumps/vector_add (a location edited to name /etc/passwd
or a file outside the bundle; a FIFO or a link to /dev/zero in place of a
file; an output folder that is, holds or lies in the input) and checks the
message, the exit status, that nothing outside the output changed and that
the input is intact.  Every command runs under a timeout, so a hang fails
the test instead of blocking the suite.  Prints TAP.

Usage: test_hostile.py TKVIEW   (TK_TEST_SAMPLES, TK_TEST_DUMPS)
"""
import glob
import hashlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, run as run_case  # noqa: E402
from zstd_file import read_kernel_file  # noqa: E402

TKVIEW = os.path.abspath(sys.argv[1])
SAMPLE = os.path.join(os.environ['TK_TEST_SAMPLES'], 'vector_add')
DUMPS = os.environ.get('TK_TEST_DUMPS', '')
KDIR = 'add_kernel-faf6139b'
SRC = '/tmp/capture/vector_add/src/vector_add.py'
HANG_S = 60
ENV = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}


def test(fn):
    """A case, given a temporary folder of its own (removed after it)."""
    def in_tempdir():
        with tempfile.TemporaryDirectory() as d:
            fn(d)
    run_case(fn.__name__, in_tempdir)
    return fn


def run(*args):
    """(exit status, stdout, stderr); a run past HANG_S fails the test."""
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, timeout=HANG_S, env=ENV)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def snapshot(d, skip=()):
    """Every entry under D (not following links) with what it is: a file's
    digest, a link's target, a FIFO; for 'nothing changed' checks."""
    out = {}
    for root, dirs, files in os.walk(d):
        rel_root = os.path.relpath(root, d)
        dirs[:] = [x for x in dirs if os.path.normpath(os.path.join(rel_root, x)) not in skip]
        for name in dirs + files:
            p = os.path.join(root, name)
            rel = os.path.normpath(os.path.join(rel_root, name))
            if rel in skip:
                continue
            st = os.lstat(p)
            if os.path.islink(p):
                out[rel] = 'link ' + os.readlink(p)
            elif os.path.isdir(p):
                out[rel] = 'dir'
            elif not os.path.isfile(p):
                out[rel] = 'special %o' % st.st_mode
            else:
                with open(p, 'rb') as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
    return out


def hostile(d, name='h'):
    b = os.path.join(d, name)
    shutil.copytree(SAMPLE, b, symlinks=True)
    return b


def replace_in(path, old, new, count=1):
    with open(path) as f:
        text = f.read()
    assert text.count(old) >= count, (path, old)
    with open(path, 'w') as f:
        f.write(text.replace(old, new, count))


def make_fifo(path):
    os.unlink(path)
    os.mkfifo(path)


def all_text(d):
    """Every file's bytes under D, joined (a kernel's FILE.zst inflated:
    format 4; the dump pool's frames may need their base, kept as they
    are)."""
    out = b''
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            if os.path.basename(root) == 'dumps':
                with open(p, 'rb') as fh:
                    out += fh.read()
            else:
                out += read_kernel_file(p)
    return out


# ---- locations naming files of this machine --------------------------------

def locations_out(d):
    """A bundle whose TTGIR names /etc/passwd (vector_add.py:16, #loc13) and a
    secret file beside the bundle (vector_add.py:8, #loc2)."""
    b = hostile(d)
    secret = os.path.join(d, 'secret.py')
    with open(secret, 'w') as f:  # the token on every line a location may name
        f.write(''.join('TOKEN%d = "tkview-secret-7f3a"\n' % i for i in range(40)))
    ttgir = os.path.join(b, KDIR, 'add_kernel.ttgir')
    # add_kernel.ttgir:5 `#loc13 = loc("/tmp/capture/vector_add/src/vector_add.py":16:15)`
    replace_in(ttgir, '#loc13 = loc("%s":16:15)' % SRC, '#loc13 = loc("/etc/passwd":16:15)')
    # add_kernel.ttgir:43 `#loc2 = loc("/tmp/capture/vector_add/src/vector_add.py":8:24)`
    replace_in(ttgir, '#loc2 = loc("%s":8:24)' % SRC, '#loc2 = loc("%s":8:24)' % secret)
    return b, secret


@test
def locations_naming_local_files_are_never_read(d):
    b, secret = locations_out(d)
    before = snapshot(d)
    passwd = open('/etc/passwd', 'rb').read()
    info = json.loads(run('info', b, '--json')[1])
    srcs = {s['path']: s['resolved'] for s in info['sources']}
    assert srcs['/etc/passwd'] is None and srcs[secret] is None, srcs
    assert '/sources/' in srcs[SRC], srcs
    text = run('info', b)[1]
    assert '/etc/passwd  (outside the bundle, not read: shown as path:line)' in text, text
    # The report: made, without either file's text; each location named.
    out = os.path.join(d, 'report')
    code, _, err = run('--html', out, b)
    assert code == 0, err
    assert 'not read: it is outside the bundle' in err and '/etc/passwd' in err, err
    text = all_text(out)
    assert b'tkview-secret-7f3a' not in text and passwd[:200] not in text
    files = open(os.path.join(out, 'data', 'files.js')).read()
    assert '"/etc/passwd",null' in files.replace(' ', ''), files
    # bind still answers by the location's path:line.
    code, out_text, err = run('bind', b, '--source', '/etc/passwd:16', '--stage', 'ttgir')
    assert code == 0 and 'tt.reduce' in out_text, (code, out_text, err)
    # Written again as a bundle: neither is packed, both listed as missing.
    b2 = os.path.join(d, 'again')
    code, _, err = run('bundle', b, '-o', b2)
    assert code == 0, err
    assert b'tkview-secret-7f3a' not in all_text(b2) and passwd[:200] not in all_text(b2)
    m = json.load(open(os.path.join(b2, 'manifest.json')))
    missing = {s['path']: s['reason'] for s in m['missing_sources']}
    assert 'outside the bundle' in missing['/etc/passwd'], missing
    assert 'outside the bundle' in missing[secret], missing
    after = snapshot(d, skip=('report', 'again'))
    assert after == before


def passwd_lines():
    """/etc/passwd's lines long enough not to show up by chance."""
    with open('/etc/passwd', 'rb') as f:
        return [l for l in f.read().splitlines() if len(l) > 12]


def leaks(text):
    """What of the secret or /etc/passwd shows in TEXT (bytes)."""
    found = [b'tkview-secret-7f3a'] if b'tkview-secret-7f3a' in text else []
    return found + [l for l in passwd_lines() if l in text]


@test
def hot_and_compare_read_nothing_outside(d):
    b, secret = locations_out(d)
    # hot shows the text of the lines SASS names: point some at the files.
    sass = os.path.join(b, KDIR, 'add_kernel.sass_gi')
    # add_kernel.sass_gi:21 `//## File "/tmp/capture/vector_add/src/vector_add.py", line 12`
    replace_in(sass, '"%s", line 12' % SRC, '"/etc/passwd", line 1', 7)
    # add_kernel.sass_gi, 3 lines `... vector_add.py", line 18`
    replace_in(sass, '"%s", line 18' % SRC, '"%s", line 18' % secret, 3)
    before = snapshot(d)
    sample = os.path.join(d, 'sample')  # the other side, untouched
    shutil.copytree(SAMPLE, sample, symlinks=True)
    for args in (['hot', b, '--top', '0'], ['hot', b, '--json'],
                 ['hot', b, '--inclusive', '--top', '0']):
        code, out, err = run(*args)
        assert code == 0, (args, err)
        assert not leaks((out + err).encode()), (args, leaks((out + err).encode()))
        assert 'passwd:1 ' in out or '"/etc/passwd"' in out, out
        assert 'secret.py:18' in out or 'secret.py"' in out, out
        if '--json' not in args:
            # the line's code column shows vector_add.py's own text
            # (sources/0000-vector_add.py:14 `output = x + y`), never the others'
            assert 'output = x + y' in out, out
            assert 'not read: it is outside the bundle' in err and '/etc/passwd' in err, err
    # One side hostile, then the other: 1 = no pass parts the two ways.
    for a, other in ((b, sample), (sample, b)):
        for extra in ([], ['--json'], ['--all']):
            code, out, err = run('compare', a, other, '--kernel', 'add_kernel', *extra)
            assert code in (0, 1), (a, extra, code, err)
            assert not leaks((out + err).encode()), (a, extra)
    out = os.path.join(d, 'report')
    code, _, err = run('--html', out, b, sample, '--compare', 'add_kernel:add_kernel')
    assert code == 0, err
    assert 'not read: it is outside the bundle' in err and '/etc/passwd' in err, err
    assert glob.glob(os.path.join(out, 'c0*.html')), os.listdir(out)
    assert not leaks(all_text(out))
    assert snapshot(d, skip=('report', 'sample')) == before


@test
def dotdot_and_links_out_of_the_bundle(d):
    b, secret = locations_out(d)
    ttgir = os.path.join(b, KDIR, 'add_kernel.ttgir')
    # A relative chain from the bundle folder to the secret, and a link in
    # the bundle to it (add_kernel.ttgir:44 `#loc3 ... vector_add.py":9:24)`).
    replace_in(ttgir, '#loc3 = loc("%s":9:24)' % SRC, '#loc3 = loc("../secret.py":9:24)')
    os.symlink(secret, os.path.join(b, 'loot.py'))
    replace_in(ttgir, '#loc4 = loc("%s":10:41)' % SRC, '#loc4 = loc("loot.py":10:41)')
    # sources/ a link to a copy of itself outside: the manifest's copy refused.
    shutil.move(os.path.join(b, 'sources'), os.path.join(d, 'sources-out'))
    os.symlink(os.path.join(d, 'sources-out'), os.path.join(b, 'sources'))
    before = snapshot(d)
    out = os.path.join(d, 'report')
    code, _, err = run('--html', out, b)
    assert code == 0, err
    assert 'the copy of source %s' % SRC in err and 'leads outside the bundle' in err, err
    assert b'tkview-secret-7f3a' not in all_text(out)
    assert b'def add_kernel' not in all_text(out)  # vector_add.py's own text
    info = json.loads(run('info', b, '--json')[1])
    assert all(s['resolved'] is None for s in info['sources']), info['sources']
    assert snapshot(d, skip=('report',)) == before


@test
def a_stage_file_linked_out_is_refused(d):
    b = hostile(d)
    outside = os.path.join(d, 'outside.ptx')
    shutil.move(os.path.join(b, KDIR, 'add_kernel.ptx'), outside)
    os.symlink(outside, os.path.join(b, KDIR, 'add_kernel.ptx'))
    code, out, err = run('info', b, '--json')
    assert code == 0, err
    assert 'add_kernel.ptx' in err and 'leads outside the bundle' in err, err
    assert json.loads(out)['kernels'][0]['stages']['ptx'] is None


# ---- special files -----------------------------------------------------------

@test
def fifo_manifest_never_blocks(d):
    b = hostile(d)
    make_fifo(os.path.join(b, 'manifest.json'))
    before = snapshot(d)
    for args in (['info', b], ['--html', os.path.join(d, 'r'), b],
                 ['bundle', b, '-o', os.path.join(d, 'o')]):
        code, _, err = run(*args)
        # The folder is still read as kernel folders.
        assert code == 0, (args, err)
        assert 'manifest.json' in err and 'a FIFO (named pipe), not a regular file' in err, err
    assert snapshot(d, skip=('r', 'o')) == before


@test
def fifos_named_like_kernel_files_are_left_out_of_a_bundle(d):
    for name in ('add_kernel.json', 'add_kernel.cubin', 'add_kernel.source'):
        b = hostile(d, name)
        make_fifo(os.path.join(b, KDIR, name))
        before = snapshot(b)
        out = os.path.join(d, name + '-out')
        code, _, err = run('bundle', b, '-o', out)
        assert code == 0, (name, err)
        assert name in err and 'left out of the bundle' in err and 'a FIFO' in err, err
        assert not os.path.exists(os.path.join(out, KDIR, name)), name
        assert snapshot(b) == before
        assert run('info', out)[0] == 0


@test
def fifo_stage_file_is_an_error_for_that_stage(d):
    b = hostile(d)
    make_fifo(os.path.join(b, KDIR, 'add_kernel.ptx'))
    code, out, err = run('info', b, '--json')
    assert code == 0, err
    assert 'cannot read this stage file: a FIFO (named pipe)' in err, err
    assert json.loads(out)['kernels'][0]['stages']['ptx'] is None


def max_child_rss_mib():
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


@test
def profile_import_and_hot_on_special_files(d):
    b = os.path.join(d, 'mp')
    shutil.copytree(os.path.join(os.path.dirname(SAMPLE), 'matmul_profile'), b, symlinks=True)
    kdir = os.path.join(b, 'matmul_pipelined-bc33df85')
    csv = os.path.join(b, 'ncu', 'source_sass.csv.gz')
    profile = os.path.join(kdir, 'matmul_pipelined.profile.json')
    fifo = os.path.join(d, 'export.csv')
    os.mkfifo(fifo)
    before = snapshot(b)
    # The export a FIFO or a device: refused by name, the bundle untouched.
    code, _, err = run('profile', 'import', b, fifo, '--force')
    assert code == 3 and 'export.csv' in err and 'a FIFO (named pipe)' in err, (code, err)
    code, _, err = run('profile', 'import', b, '/dev/zero', '--force')
    assert code == 3 and 'a character device, not a regular file' in err, (code, err)
    assert snapshot(b) == before
    # The kernel's profile.json a FIFO, then a link to /dev/zero: hot says
    # so and ranks by instructions instead.
    os.unlink(profile)
    os.mkfifo(profile)
    code, out, err = run('hot', b, '--top', '1')
    assert code == 0 and '(SASS instructions)' in out, (code, out, err)
    assert 'matmul_pipelined.profile.json' in err and 'a FIFO (named pipe)' in err, err
    os.unlink(profile)
    os.symlink('/dev/zero', profile)
    code, out, err = run('hot', b, '--top', '1')
    assert code == 0 and '(SASS instructions)' in out, (code, out, err)
    assert 'leads outside the bundle folder (to /dev/zero)' in err, err
    # profile.json a link to a file outside: never read, and an import
    # replaces the link, never the file it points to.
    outside = os.path.join(d, 'outside.json')
    with open(outside, 'w') as f:
        f.write('{"tkview-secret-7f3a": 1}\n')
    os.unlink(profile)
    os.symlink(outside, profile)
    code, out, err = run('hot', b, '--top', '1')
    assert code == 0 and 'leads outside the bundle folder' in err, err
    code, out, err = run('profile', 'import', b, csv, '--force')
    assert code == 0, err
    assert open(outside).read() == '{"tkview-secret-7f3a": 1}\n'
    assert not os.path.islink(profile) and os.path.isfile(profile)
    code, out, err = run('hot', b, '--top', '1')
    assert code == 0 and '40471 samples (' in out, (code, out, err)
    # manifest.json a FIFO: import refuses the bundle without blocking.
    make_fifo(os.path.join(b, 'manifest.json'))
    code, _, err = run('profile', 'import', b, csv, '--force')
    assert code == 3 and 'a FIFO (named pipe)' in err, (code, err)
    assert max_child_rss_mib() < 1024, max_child_rss_mib()


@test
def dev_zero_in_bounded_memory(d):
    b = hostile(d)
    os.unlink(os.path.join(b, 'manifest.json'))
    os.symlink('/dev/zero', os.path.join(b, 'manifest.json'))
    os.unlink(os.path.join(b, KDIR, 'add_kernel.json'))
    os.symlink('/dev/zero', os.path.join(b, KDIR, 'add_kernel.json'))
    code, _, err = run('info', b)
    assert code == 0, err
    # The manifest is the first file the trust check refuses (issue 27).
    assert 'manifest.json: warning: not read: a symbolic link out of the bundle to /dev/zero' in err, err
    code, _, err = run('--html', os.path.join(d, 'r'), SAMPLE, '--notes', '/dev/zero')
    assert code == 2 and 'cannot read the note: a character device' in err, (code, err)
    assert not os.path.exists(os.path.join(d, 'r'))
    # Before: 18 GB in 30 s.  Far below that, sanitizers included.
    assert max_child_rss_mib() < 1024, max_child_rss_mib()


@test
def notes_fifo_and_sparse_stage(d):
    fifo = os.path.join(d, 'notes.md')
    os.mkfifo(fifo)
    code, _, err = run('--html', os.path.join(d, 'r'), SAMPLE, '--notes', fifo)
    assert code == 2 and 'cannot read the note: a FIFO (named pipe)' in err, (code, err)
    assert sorted(os.listdir(d)) == ['notes.md'], os.listdir(d)
    # A 2 GiB sparse stage file: refused from its size.
    b = hostile(d)
    with open(os.path.join(b, KDIR, 'add_kernel.llir'), 'r+b') as f:
        f.truncate(2 << 30)
    code, out, err = run('info', b, '--json')
    assert code == 0, err
    assert '2147483648 bytes, over the 1 GiB a stage file may have' in err, err
    assert json.loads(out)['kernels'][0]['stages']['llir'] is None
    assert max_child_rss_mib() < 1024, max_child_rss_mib()


# ---- outputs that overlap inputs ----------------------------------------------

@test
def html_never_replaces_its_input(d):
    b = hostile(d, 'in')
    before = snapshot(d)
    code, _, err = run('--html', b, b, '--force')
    assert code == 2 and 'is the input' in err, (code, err)
    code, _, err = run('--html', d, b, '--force')
    assert code == 2 and 'contains the input' in err, (code, err)
    code, _, err = run('--html', os.path.join(b, 'report'), b, '--force')
    assert code == 2 and 'inside the input' in err, (code, err)
    # Through a link to it, and spelled with ./ and a trailing slash.
    os.symlink(b, os.path.join(d, 'link'))
    code, _, err = run('--html', os.path.join(d, 'link'), './' + os.path.relpath(b) + '/', '--force')
    assert code == 2 and 'is the input' in err, (code, err)
    os.unlink(os.path.join(d, 'link'))
    # Nor the other side of --compare (it once replaced that bundle).
    other = hostile(d, 'other')
    before = snapshot(d)
    for out, why in ((other, 'is the input'), (os.path.join(other, 'r'), 'inside the input'),
                     (d, 'contains the input')):
        code, _, err = run('--html', out, b, other, '--compare', 'add_kernel:add_kernel',
                           '--force')
        assert code == 2 and why in err and 'report not written' in err, (out, code, err)
    assert snapshot(d) == before
    assert run('info', b)[0] == 0 and run('info', other)[0] == 0


@test
def bundle_never_writes_into_its_input(d):
    b = hostile(d, 'X')
    before = snapshot(d)
    code, _, err = run('bundle', b, '-o', os.path.join(b, 'sub'))
    assert code == 3 and 'inside the input' in err and 'bundle not written' in err, (code, err)
    code, _, err = run('bundle', os.path.join(b, KDIR), '-o', os.path.join(b, 'sub'))
    assert code == 3 and 'inside the input' in err, (code, err)
    assert snapshot(d) == before
    info = json.loads(run('info', b, '--json')[1])
    assert len(info['kernels']) == 1


# ---- interrupted outputs ---------------------------------------------------------

def interrupt_when_staged(d, args, sig):
    """Runs tkview ARGS writing into D; once its staging folder shows in D,
    sends SIG.  Returns the exit status (negative: killed by a signal)."""
    p = subprocess.Popen([TKVIEW, *args], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=ENV)
    deadline = time.time() + HANG_S
    try:
        while not glob.glob(os.path.join(d, '.*tkview-tmp-*')):
            if p.poll() is not None:
                raise AssertionError('finished before it was interrupted: %s'
                                     % p.stderr.read().decode())
            if time.time() > deadline:
                raise AssertionError('no staging folder in %d s' % HANG_S)
            time.sleep(0.002)
        p.send_signal(sig)
        return p.wait(HANG_S)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


@test
def interrupted_bundle_and_report_leave_nothing(d):
    big = os.path.join(DUMPS, 'persistent_tma_matmul')
    assert os.path.isdir(big), big  # 142 MB of pass dumps: seconds of work
    for sig in (signal.SIGINT, signal.SIGTERM):
        for cmd in (['bundle', big, '-o'], ['--html']):
            out = os.path.join(d, 'out')
            args = cmd + [out] + ([] if cmd[0] == 'bundle' else [big])
            rc = interrupt_when_staged(d, args, sig)
            assert rc == -sig, (cmd, sig, rc)
            assert os.listdir(d) == [], (cmd, sig, os.listdir(d))


sys.exit(finish())
