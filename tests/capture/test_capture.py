#!/usr/bin/env python3
"""End-to-end tests of `tkview capture` that need no GPU.

 - The Triton route, with fake_triton.py standing in for a Triton program: it
   writes the shared captures' real dump files where the knobs say, then
   finishes, crashes, kills itself, fails or waits to be interrupted.
 - The MLIR route on compiler/examples/mlir/add_sum.mlir with Debian's
   mlir-opt-19, mlir-translate-19, opt-19 and llc-19.

Expected values come from the dump files and the example's source text (read
by the test, quoted in comments), never from tkview's own output.  Prints TAP.

Usage: test_capture.py TKVIEW   (TK_TEST_DUMPS names the unpacked captures,
TK_TEST_SRCDIR the tests folder)
"""
import glob
import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TKVIEW = os.path.abspath(sys.argv[1])
DUMPS = os.environ.get('TK_TEST_DUMPS', '')
HAVE_DUMPS = os.environ.get('TK_TEST_HAVE_DUMPS') == '1'
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FAKE = os.path.join(HERE, 'fake_triton.py')
sys.path.insert(0, os.path.join(HERE, '..', 'support'))
from zstd_file import read_kernel_file  # noqa: E402
EXAMPLE = os.path.join(ROOT, 'compiler', 'examples', 'mlir', 'add_sum.mlir')
HAVE_MLIR = all(shutil.which(t) for t in ('mlir-opt-19', 'mlir-translate-19',
                                          'llc-19'))
SAFE = re.compile(r'^[A-Za-z0-9_+\-][A-Za-z0-9._+\-]*$')
results = []
TMP = tempfile.mkdtemp(prefix='tkview-capture-test-')


class Skip(Exception):
    """Raised by a test that cannot run here; its message says why."""


def test(needs=None):
    def wrap(fn):
        if needs == 'dumps' and not HAVE_DUMPS:
            results.append((fn.__name__, 'SKIP the shared captures are not '
                            'unpacked (../shared/dumps missing)'))
            return fn
        if needs == 'mlir' and not HAVE_MLIR:
            results.append((fn.__name__, 'SKIP mlir-opt-19, mlir-translate-19 '
                            'or llc-19 not installed (apt-get install '
                            'mlir-19-tools llvm-19)'))
            return fn
        try:
            fn()
            results.append((fn.__name__, None))
        except Skip as e:
            results.append((fn.__name__, 'SKIP %s' % e))
        except Exception as e:  # report and go on: TAP wants every line
            results.append((fn.__name__, repr(e)))
        return fn
    return wrap


def run(*args, cwd=TMP, timeout=300):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout, cwd=cwd,
                       env=dict(os.environ, TK_TEST_DUMPS=DUMPS))
    return (p.returncode, p.stdout.decode('utf-8', 'replace'),
            p.stderr.decode('utf-8', 'replace'))


def fresh(name):
    path = os.path.join(TMP, name)
    shutil.rmtree(path, ignore_errors=True)
    return path


def manifest(bundle):
    with open(os.path.join(bundle, 'manifest.json')) as f:
        return json.load(f)


def kernels_by_name(m):
    return {k['name']: k for k in m['kernels']}


def dump_json(capture, name):
    """NAME.json of a shared capture's cache entry."""
    [path] = glob.glob(os.path.join(DUMPS, capture, 'cache', '*', name + '.json'))
    with open(path) as f:
        return json.load(f)


def no_work_folders():
    left = [e for e in os.listdir(TMP) if '.capture-' in e]
    assert not left, left


def capture_fake(out, *fake_args, extra=()):
    return run('capture', '-o', out, *extra, '--', sys.executable, FAKE,
               *fake_args)


# ---- the Triton route -----------------------------------------------------

@test('dumps')
def complete_capture_keeps_every_kernel_and_shows_only_messages():
    out = fresh('complete')
    code, stdout, stderr = capture_fake(
        out, 'ok', 'vector_add', 'softmax',
        extra=('--source-dir', os.path.join(DUMPS, 'vector_add', 'src'),
               '--source-dir', os.path.join(DUMPS, 'softmax', 'src')))
    assert code == 0, (code, stderr)
    assert stdout == 'fake: done\n', stdout  # the program's stdout, as is
    # Its stderr: the two lines it wrote itself, none of the 5 MB of dumps.
    assert '/tmp/fake.py:3: UserWarning: a warning before compiling' in stderr
    assert 'fake: a message after the dumps' in stderr
    for dump_text in ('IR Dump', 'Running pass', 'define ', '!DILocation',
                      'End machine code'):
        assert dump_text not in stderr, dump_text
    m = manifest(out)
    assert m['complete'] is True
    assert m['command'] == [sys.executable, FAKE, 'ok', 'vector_add',
                            'softmax'], m['command']
    ks = kernels_by_name(m)
    assert set(ks) == {'add_kernel', 'softmax_kernel'}, list(ks)
    # The hashes Triton wrote in each kernel's NAME.json.
    assert ks['add_kernel']['hash'] == dump_json('vector_add', 'add_kernel')['hash']
    assert ks['softmax_kernel']['hash'] == dump_json('softmax', 'softmax_kernel')['hash']
    for k in ks.values():
        assert set(k['stages']) == {'ttir', 'ttgir', 'llir', 'ptx', 'sass'}, k
        assert k['stages']['sass'].endswith(('.sass_gi', '.sass_gi.zst')), k['stages']
        kinds = sorted(p['kind'] for p in k.get('passes', []))
        assert kinds == ['llvm', 'mlir'], (k['name'], kinds)
    # vector_add's add_kernel.json: "num_warps": 4, "shared": 16
    assert ks['add_kernel']['metadata']['num_warps'] == 4
    assert ks['add_kernel']['metadata']['shared_bytes'] == 16
    srcs = {os.path.basename(s['path']): s for s in m['sources']}
    assert 'vector_add.py' in srcs and 'softmax.py' in srcs, list(srcs)
    with open(os.path.join(out, srcs['vector_add.py']['file'])) as f:
        assert '@triton.jit' in f.read()
    cap = m['capture']
    assert cap['route'] == 'triton' and cap['exit_status'] == 0
    assert cap['interrupted'] is False
    # Both captures' stderr.txt, whole.
    size = sum(os.path.getsize(os.path.join(DUMPS, c, 'stderr.txt'))
               for c in ('vector_add', 'softmax'))
    assert cap['stderr_bytes'] == size + len(
        '/tmp/fake.py:3: UserWarning: a warning before compiling\n'
        'fake: a message after the dumps\n'), (cap['stderr_bytes'], size)
    assert cap['stderr_shown_lines'] == 2, cap
    assert cap['kernels_compiled'] == 2, cap
    with open(os.path.join(out, cap['stderr'])) as f:
        assert f.read() == ('/tmp/fake.py:3: UserWarning: a warning before '
                            'compiling\nfake: a message after the dumps\n')
    # The bundle binds: vector_add.py line 16 is "s = tl.sum(output)".
    code, js, err = run('bind', out, '--source', 'vector_add.py:16',
                        '--kernel', 'add_kernel', '--json')
    assert code == 0, err
    stages = json.loads(js)['kernels'][0]['stages']
    for st in ('ttir', 'ttgir', 'llir', 'ptx', 'sass'):
        assert stages.get(st), (st, stages.get(st))
    no_work_folders()


@test('dumps')
def knobs_point_into_the_work_folder():
    out = fresh('knobs')
    envfile = os.path.join(TMP, 'knobs.json')
    code, _, err = capture_fake(out, 'env', envfile, 'vector_add')
    assert code == 0, err
    with open(envfile) as f:
        env = json.load(f)
    assert env['TRITON_ALWAYS_COMPILE'] == '1'
    assert env['MLIR_ENABLE_DUMP'] == '1'
    assert env['LLVM_IR_ENABLE_DUMP'] == '1'
    assert env['TRITON_KERNEL_DUMP'] == '1'
    assert env['TORCHINDUCTOR_COMPILE_THREADS'] == '1'
    assert env['USE_IR_LOC'] is None
    assert env['TKVIEW_LLVM_OPTIONS'] is None  # no --kernel: every kernel's
    # The compiler's messages (tkview diagnostics), on by default.
    assert env['MLIR_ENABLE_DIAGNOSTICS'] == 'warnings,remarks'
    assert env['TRITON_DUMP_PTXAS_LOG'] == '1'
    work = os.path.join(TMP, '.knobs.capture-')
    for k in ('MLIR_DUMP_PATH', 'TRITON_DUMP_DIR', 'TRITON_CACHE_DIR',
              'TORCHINDUCTOR_CACHE_DIR'):
        assert env[k].startswith(work), (k, env[k])
    assert env['MLIR_DUMP_PATH'].endswith('/mlir_passes.txt')
    # --irloc and --kernel
    out = fresh('knobs2')
    code, _, err = capture_fake(out, 'env', envfile, 'vector_add',
                                extra=('--irloc', 'ttgir', '--kernel',
                                       'add_kernel'))
    assert code == 0, err
    with open(envfile) as f:
        env = json.load(f)
    assert env['USE_IR_LOC'] == 'ttgir' and env['MLIR_ENABLE_DUMP'] == 'add_kernel'
    assert env['TKVIEW_LLVM_OPTIONS'] is None  # no hook here: nothing to set it
    # With tkview's hook: LLVM's dumps of that kernel only, which the hook
    # asks LLVM for where it can (tests/capture/test_llvm_options.py)
    hook = os.path.join(os.environ['TK_TEST_SRCDIR'], '..', 'compiler', 'python')
    out3 = fresh('knobs3')
    p = subprocess.run([TKVIEW, 'capture', '-o', out3, '--kernel', 'add_kernel', '--',
                        sys.executable, FAKE, 'env', envfile, 'vector_add'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, cwd=TMP,
                       env=dict(os.environ, TK_TEST_DUMPS=DUMPS, TKVIEW_PYTHON_DIR=hook))
    assert p.returncode == 0, p.stderr.decode()
    with open(envfile) as f:
        env = json.load(f)
    assert env['TKVIEW_LLVM_OPTIONS'] == '-filter-print-funcs=add_kernel', env
    assert manifest(out3)['capture']['env']['TKVIEW_LLVM_OPTIONS'] == \
        '-filter-print-funcs=add_kernel'
    assert manifest(out)['capture']['env']['USE_IR_LOC'] == 'ttgir'
    no_work_folders()


def fake_diag_plain(name, knobs_on, extra_env=None):
    """fake_triton.py diag run without tkview, under the dump knobs it
    needs, with TRITON_DUMP_PTXAS_LOG (and the remarks) when KNOBS_ON:
    its stdout, as a program's user would see it."""
    scratch = fresh(name)
    os.makedirs(os.path.join(scratch, 'kd'))
    os.makedirs(os.path.join(scratch, 'cache'))
    knobs = {'TRITON_DUMP_DIR': os.path.join(scratch, 'kd'),
             'TRITON_CACHE_DIR': os.path.join(scratch, 'cache'),
             'MLIR_DUMP_PATH': os.path.join(scratch, 'mlir.txt')}
    if knobs_on:
        knobs.update({'MLIR_ENABLE_DIAGNOSTICS': 'warnings,remarks',
                      'TRITON_DUMP_PTXAS_LOG': '1'})
    env = dict(os.environ, TK_TEST_DUMPS=DUMPS, **knobs)
    if not knobs_on:
        env.pop('TRITON_DUMP_PTXAS_LOG', None)
    return subprocess.run([sys.executable, FAKE, 'diag', 'vector_add'],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          env=env, timeout=300, check=True).stdout


# What fake_triton.py diag prints for ptxas's log under the knob (8 lines:
# seven of ptxas -v's log and print()'s blank line), read from its text.
PTXAS_LOG_LINES = 8


@test('dumps')
def stdout_passes_through_byte_identical_and_diagnostics_are_kept():
    """The program's stdout reaches tkview's stdout byte for byte (the
    fake's raw bytes, \\r, no final newline) as it does without capture,
    that is without the ptxas log capture's knob adds; Triton's failure
    banner, printed knob or not, is shown.  Its copy in the bundle is the
    stream under the knobs, and feeds tkview diagnostics with the ptxas
    log; the remark comes from stderr."""
    plain = fake_diag_plain('diag-plain', False)
    logged = fake_diag_plain('diag-logged', True)
    assert b'\xff\xfe\r\n' in plain and plain.endswith(b'no newline at the end')
    assert b'ptxas info' not in plain and b'ptxas fatal   : (C7602)' in plain
    assert logged.count(b'ptxas info') == 6 and len(logged) > len(plain)
    out = fresh('diag')
    env = dict(os.environ, TK_TEST_DUMPS=DUMPS)
    env.pop('TRITON_DUMP_PTXAS_LOG', None)
    p = subprocess.run([TKVIEW, 'capture', '-o', out, '--no-progress', '--',
                        sys.executable, FAKE, 'diag', 'vector_add'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=TMP,
                       env=env, timeout=300)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout == plain, (p.stdout, plain)
    with open(os.path.join(out, 'capture', 'stdout.txt'), 'rb') as f:
        assert f.read() == logged
    # The remark (4 lines: it, the source line, the caret, the note) is
    # the knob's too: kept in the bundle (diagnostics below reads it), not
    # on the terminal, where Triton shows errors only without the knob.
    assert b'fake remark' not in p.stderr and b'a note about it' not in p.stderr, p.stderr
    with open(os.path.join(out, 'capture', 'stderr.txt'), 'rb') as f:
        assert b'16:15: remark: fake remark about the store' in f.read()
    cap = manifest(out)['capture']
    assert cap['stderr_diag_hidden_lines'] == 4, cap
    assert cap['stdout'] == 'capture/stdout.txt'
    assert cap['stdout_hidden_lines'] == PTXAS_LOG_LINES, cap
    assert cap['stdout_pty'] is False, cap
    code, js, err = run('diagnostics', out, '--json')
    assert code == 0, err
    [k] = json.loads(js)['kernels']
    assert k['name'] == 'add_kernel' and k['failed'], k
    by = {(d['origin'], d['code'] or d['severity']): d for d in k['diagnostics']}
    assert len(by) == len(k['diagnostics']) == 4, k['diagnostics']
    r = by[('mlir', 'remark')]
    assert (r['line'], r['column'], r['notes']) == (16, 15, ['a note about it']), r
    assert by[('ptxas', 'C7511')]['severity'] == 'warning'
    assert by[('ptxas', 'warning')]['message'].startswith('48 bytes stack frame, 40 bytes spill')
    # add_kernel.ptx of vector_add: line 61 is the first ld.global, and the
    # .loc before it (line 55) is ".loc 1 12 16".
    f = by[('ptxas', 'C7602')]
    assert (f['stage'], f['ir_line'], f['line'], f['column']) == ('ptx', 61, 12, 16), f
    no_work_folders()


@test('dumps')
def ptxas_log_is_shown_when_the_user_set_the_knob():
    """TRITON_DUMP_PTXAS_LOG=on in the user's environment (Triton reads
    "on" as true): the user asked for the log and sees all of stdout; and
    MLIR_ENABLE_DIAGNOSTICS=remarks: the remark on stderr."""
    logged = fake_diag_plain('diag-logged2', True)
    out = fresh('diag-knob')
    p = subprocess.run([TKVIEW, 'capture', '-o', out, '--no-progress', '--',
                        sys.executable, FAKE, 'diag', 'vector_add'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=TMP,
                       env=dict(os.environ, TK_TEST_DUMPS=DUMPS,
                                TRITON_DUMP_PTXAS_LOG='on',
                                MLIR_ENABLE_DIAGNOSTICS='remarks'), timeout=300)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout == logged, (p.stdout, logged)
    assert (b'16:15: remark: fake remark about the store\n'
            b'    tl.store(output_ptr + offsets, output, mask=mask)\n'
            b'              ^\n') in p.stderr, p.stderr
    assert manifest(out)['capture']['stdout_hidden_lines'] == 0
    no_work_folders()


def run_on_pty(argv, env, cwd=None, stderr_path=None, size=None, on_output=None):
    """Runs ARGV with its stdout on a fresh pty (raw: no byte translated;
    SIZE (rows, cols) set on it), stdin and stderr (into STDERR_PATH)
    elsewhere; ON_OUTPUT(master, process, bytes so far) is called as bytes
    arrive.  Returns (exit status, bytes read from the pty until the last
    writer closed it)."""
    import tty
    master, slave = pty.openpty()
    tty.setraw(slave)
    if size:
        set_winsize(slave, *size)
    with open(stderr_path or os.path.join(TMP, 'pty-stderr.txt'), 'wb') as err:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave,
                             stderr=err, cwd=cwd or TMP, env=env)
    os.close(slave)
    got = b''
    end = time.time() + 300
    while time.time() < end:
        if on_output:
            on_output(master, p, got)
        r, _, _ = select.select([master], [], [], 1.0)
        if not r:
            if p.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: no writer left
            break
        if not chunk:
            break
        got += chunk
    os.close(master)
    return p.wait(timeout=60), got


def set_winsize(fd, rows, cols):
    import fcntl
    import struct
    import termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))


@test('dumps')
def program_stdout_is_a_tty_when_tkview_stdout_is_one():
    """On a terminal, capture gives the program a pty: sys.stdout.isatty()
    is True as without tkview, and the bytes (\\r, \\xff, no final
    newline) arrive unchanged, on the terminal and in the bundle."""
    plain = fake_diag_plain('diag-plain-tty', False)
    logged = fake_diag_plain('diag-logged-tty', True)
    assert b'stdout is a tty: False\n' in plain  # through a pipe
    env = dict(os.environ, TK_TEST_DUMPS=DUMPS)
    env.pop('TRITON_DUMP_PTXAS_LOG', None)
    out = fresh('diag-tty')
    code, shown = run_on_pty([TKVIEW, 'capture', '-o', out, '--no-progress', '--',
                              sys.executable, FAKE, 'diag', 'vector_add'], env)
    assert code == 0, open(os.path.join(TMP, 'pty-stderr.txt'), 'rb').read()
    tty_true = lambda b: b.replace(b'tty: False', b'tty: True')
    assert shown == tty_true(plain), (shown, plain)
    with open(os.path.join(out, 'capture', 'stdout.txt'), 'rb') as f:
        assert f.read() == tty_true(logged)
    assert manifest(out)['capture']['stdout_pty'] is True
    no_work_folders()


WINCH_PROGRAM = r"""
import os, signal, sys, time
seen = []
signal.signal(signal.SIGWINCH,
              lambda *a: seen.append(tuple(os.get_terminal_size(1))))
print('size', tuple(os.get_terminal_size(1)), flush=True)
end = time.time() + 240
while not seen and time.time() < end:
    time.sleep(0.05)
print('winch', seen[0] if seen else None, flush=True)
"""


@test()
def window_resize_reaches_the_program_on_its_pty():
    """The terminal is resized while the program runs: tkview's SIGWINCH
    copies the new size onto the program's pty and passes the signal on,
    so the program's stdout answers the new size.  The outer pty here is
    nobody's controlling terminal, so the test sends SIGWINCH to tkview
    itself, as a terminal would (to the whole group: the program gets its
    own too, but only tkview's copy makes the size right)."""
    box = fresh('winch')
    os.makedirs(box)
    prog = os.path.join(box, 'winch.py')
    with open(prog, 'w') as f:
        f.write(WINCH_PROGRAM)
    resized = []

    def resize_once(master, p, got):
        if not resized and b'size (80, 24)' in got:
            set_winsize(master, 33, 111)  # the terminal's new size
            os.kill(p.pid, signal.SIGWINCH)
            resized.append(True)

    _, got = run_on_pty([TKVIEW, 'capture', '-o', os.path.join(box, 'b'),
                         '--no-progress', '--', sys.executable, prog],
                        dict(os.environ), cwd=box,
                        stderr_path=os.path.join(box, 'stderr.txt'),
                        size=(24, 80), on_output=resize_once)
    assert b'size (80, 24)\n' in got, got  # the size at the start
    assert b'winch (111, 33)\n' in got, got


@test('dumps')
def kernel_option_keeps_one_kernel():
    out = fresh('onekernel')
    code, _, err = capture_fake(out, 'ok', 'vector_add', 'softmax',
                                extra=('--kernel', 'softmax_kernel'))
    assert code == 0, err
    assert list(kernels_by_name(manifest(out))) == ['softmax_kernel']


@test('dumps')
def autotune_timings_are_kept():
    """tkview's Python hook records what the (stand-in) autotuner measured;
    the user's PYTHONPATH and own sitecustomize keep working."""
    out = fresh('autotune')
    user = fresh('usersite')
    os.makedirs(user)
    with open(os.path.join(user, 'sitecustomize.py'), 'w') as f:
        f.write("import os\nos.environ['TK_USER_SITE'] = '1'\n")
    hook = os.path.join(os.environ['TK_TEST_SRCDIR'], '..', 'compiler', 'python')
    p = subprocess.run([TKVIEW, 'capture', '-o', out, '--', sys.executable, FAKE,
                        'autotune', 'vector_add'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300, cwd=TMP,
                       env=dict(os.environ, TK_TEST_DUMPS=DUMPS, PYTHONPATH=user,
                                TKVIEW_PYTHON_DIR=hook))
    stdout = p.stdout.decode()
    assert p.returncode == 0, p.stderr.decode()
    assert 'fake: user site ran' in stdout, stdout
    with open(os.path.join(out, 'autotune_timings.json')) as f:
        got = json.load(f)['configs']
    # The two configurations the stand-in measured, as it measured them.
    assert [(c['kernel'], c['kwargs'], c['num_warps'], c['num_stages'], c['ms'], c['best'])
            for c in got[:2]] == [
        ('mm_kernel', {'BLOCK_M': 128, 'BLOCK_N': 64}, 8, 3, [0.25, 0.24, 0.26], False),
        ('mm_kernel', {'BLOCK_M': 64, 'BLOCK_N': 64}, 4, 4, [0.125, 0.12, 0.13], True)], got
    # Then Inductor's choices (the stand-in's feedback savers): the template
    # with its description's parameters, aten's mm as an extern choice (the
    # fastest), the one that failed (inf ms) left out.
    assert [(c['kernel'], c['kwargs'], c.get('num_warps'), c.get('num_stages'), c['ms'],
             c['best'], c['source'], c.get('extern', False)) for c in got[2:]] == [
        ('triton_mm', {'ACC_TYPE': 'tl.float32', 'BLOCK_M': 64, 'EVEN_K': True}, 4, 3, [0.5],
         False, 'inductor', False),
        ('extern_mm', {}, None, None, [0.25], True, 'inductor', True)], got


def count_lines(path, prefixes):
    with open(path, 'rb') as f:
        return sum(1 for line in f if line.startswith(prefixes))


def check_compiles_capture(out, err, returncode, work):
    assert returncode == 0, err
    m = manifest(out)
    env = m['capture']['env']
    assert 'MLIR_DUMP_PATH' not in env and 'TORCHINDUCTOR_COMPILE_THREADS' not in env, env
    assert env['TKVIEW_COMPILES_DIR'].endswith('/run/compiles'), env
    assert m['capture']['compiles_kept_apart'] == 2, m['capture']
    # The messages written while compiling reach the terminal and the bundle.
    for cap in ('vector_add', 'softmax'):
        assert 'fake: a message while compiling %s\n' % cap in err, err
    with open(os.path.join(out, m['capture']['stderr'])) as f:
        kept = f.read()
    assert 'fake: a message while compiling softmax' in kept, kept
    # The remarks capture's knob added, written into the compiles' files:
    # kept for `tkview diagnostics`, not shown (the user did not ask for
    # them), as on the live stderr; each a remark and its note.
    for cap in ('vector_add', 'softmax'):
        remark = '/tmp/capture/%s.py:16:15: remark: fake remark of %s\n' % (cap, cap)
        note = '/tmp/capture/%s.py:16:15: note: a note about it\n' % cap
        assert remark in kept and note in kept, kept
        assert remark not in err and note not in err, err
    assert m['capture']['stderr_diag_hidden_lines'] == 4, m['capture']
    # Each kernel has all its dumps, none of the other's: as many passes as
    # its capture's mlir_passes.txt has "IR Dump Before" headers plus its
    # stderr.txt LLVM "IR Dump" headers (vector_add 73 + 191 = 264, softmax
    # 76 + 207 = 283, counted with grep in the files).
    ks = kernels_by_name(m)
    for cap, name in (('vector_add', 'add_kernel'), ('softmax', 'softmax_kernel')):
        want_mlir = count_lines(os.path.join(DUMPS, cap, 'mlir_passes.txt'),
                                (b'// -----// IR Dump Before',))
        want_llvm = count_lines(os.path.join(DUMPS, cap, 'stderr.txt'),
                                (b'; *** IR Dump', b'*** IR Dump', b'# *** IR Dump'))
        [entry] = ks[name]['passes']
        assert entry['kind'] == 'mixed', entry
        code, text, e = run('passes', out, '--kernel', name, '--json')
        assert code == 0, e
        [k] = json.loads(text)['kernels']
        got = k['summary']['passes']
        assert got == want_mlir + want_llvm, (name, got, want_mlir, want_llvm)
        assert (want_mlir, want_llvm) == {'add_kernel': (73, 191),
                                          'softmax_kernel': (76, 207)}[name]
    assert len(work) == 1, work
    files = os.listdir(os.path.join(TMP, work[0], 'run', 'compiles'))
    hashes = {dump_json('vector_add', 'add_kernel')['hash'],
              dump_json('softmax', 'softmax_kernel')['hash']}
    assert {f.split('.')[0] for f in files} == hashes, files
    assert len({f.split('.')[1] for f in files}) == 2, files  # two processes


@test('dumps')
def each_compile_keeps_its_own_dumps_from_parallel_processes():
    """tkview's hook, through Triton's stage hook (a stand-in triton.knobs),
    gives each compile a dump file of its own, also in a second process
    compiling at the same time; MLIR_DUMP_PATH and
    TORCHINDUCTOR_COMPILE_THREADS are left alone.  With TKVIEW_STAGE_TIMES
    (bench/capture_bench.py --stage-times) each process writes a line per
    stage it ran: HASH (NAME.json's), the compile's number, the stage."""
    out = fresh('compiles')
    hook = os.path.join(os.environ['TK_TEST_SRCDIR'], '..', 'compiler', 'python')
    pkg = os.path.join(HERE, 'fake_pkg')
    times = fresh('compiles-stage-times')
    os.mkdir(times)
    p = subprocess.run([TKVIEW, 'capture', '--keep-work', '-o', out, '--', sys.executable,
                        FAKE, 'compiles', 'vector_add', 'softmax'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, cwd=TMP,
                       env=dict(os.environ, TK_TEST_DUMPS=DUMPS, PYTHONPATH=pkg,
                                TKVIEW_PYTHON_DIR=hook, TKVIEW_STAGE_TIMES=times))
    err = p.stderr.decode()
    work = [e for e in os.listdir(TMP) if e.startswith('.compiles.capture-')]
    try:
        check_compiles_capture(out, err, p.returncode, work)
        lines = sorted(line.split()[:3] for f in os.listdir(times)
                       for line in open(os.path.join(times, f)))
        hashes = sorted(dump_json(c, n)['hash'] for c, n in (('vector_add', 'add_kernel'),
                                                             ('softmax', 'softmax_kernel')))
        assert len(os.listdir(times)) == 2, os.listdir(times)  # two processes
        assert lines == sorted([h, '1', s] for h in hashes for s in ('ttir', 'llir')), lines
        # ptxas's log: the program's own on its stdout; the child's (a
        # compile worker's stdout is not the user's) only in the bundle.
        stdout = p.stdout.decode()
        assert 'ptxas info    : fake log of vector_add\n' in stdout, stdout
        assert 'fake log of softmax' not in stdout, stdout
        with open(os.path.join(out, 'capture', 'stdout.txt')) as f:
            kept = f.read()
        for cap in ('vector_add', 'softmax'):
            assert 'ptxas info    : fake log of %s\n' % cap in kept, kept
    finally:
        for w in work:
            shutil.rmtree(os.path.join(TMP, w))


@test('dumps')
def crash_half_way_keeps_what_was_dumped():
    out = fresh('crash')
    code, stdout, err = capture_fake(out, 'crash', 'vector_add', 'softmax')
    assert code == 1, (code, err)
    assert 'fake: first kernel compiled' in stdout
    m = manifest(out)
    assert m['complete'] is False
    assert m['capture']['signal'] == signal.SIGSEGV, m['capture']
    assert m['capture']['exit_status'] is None
    ks = kernels_by_name(m)
    assert set(ks) == {'add_kernel', 'softmax_kernel'}, list(ks)
    assert set(ks['add_kernel']['stages']) == {'ttir', 'ttgir', 'llir', 'ptx',
                                                'sass'}
    # The crash came after softmax's TTGIR: no LLVM IR, PTX, cubin.
    assert set(ks['softmax_kernel']['stages']) == {'ttir', 'ttgir'}
    assert 'no cubin' in ks['softmax_kernel']['sass_missing']
    # What was written of its pass dumps is kept and loads.
    code, info, err = run('info', out, '--json')
    assert code == 0, err
    assert json.loads(info)['complete'] is False
    assert 'INCOMPLETE' in run('info', out)[1]
    no_work_folders()


@test('dumps')
def program_killed_or_failing_gives_incomplete_bundle():
    out = fresh('killed')
    code, _, err = capture_fake(out, 'killed', 'vector_add')
    assert code == 1, (code, err)
    m = manifest(out)
    assert m['complete'] is False and m['capture']['signal'] == signal.SIGKILL
    assert list(kernels_by_name(m)) == ['add_kernel']
    out = fresh('failing')
    code, _, err = capture_fake(out, 'fail', 'vector_add')
    assert code == 1, (code, err)
    assert 'Traceback (most recent call last):' in err, err
    assert 'RuntimeError: fake: the program failed after compiling' in err
    m = manifest(out)
    assert m['complete'] is False and m['capture']['exit_status'] == 1
    with open(os.path.join(out, m['capture']['stderr'])) as f:
        assert 'RuntimeError: fake: the program failed' in f.read()
    no_work_folders()


def wait_for(stream_fd, needle, timeout=60):
    got = b''
    end = time.time() + timeout
    while needle not in got:
        left = end - time.time()
        assert left > 0, got[-2000:]
        r, _, _ = select.select([stream_fd], [], [], left)
        if r:
            try:
                chunk = os.read(stream_fd, 65536)
            except OSError:  # a pty's other end closed
                chunk = b''
            assert chunk, got[-2000:]
            got += chunk
    return got


def read_rest(fd):
    got = b''
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
    return got


@test('dumps')
def interrupt_sent_to_tkview_is_passed_on():
    out = fresh('interrupted')
    p = subprocess.Popen([TKVIEW, 'capture', '-o', out, '--', sys.executable,
                          FAKE, 'hang', 'vector_add'], cwd=TMP,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ, TK_TEST_DUMPS=DUMPS))
    wait_for(p.stdout.fileno(), b'fake: ready')
    p.send_signal(signal.SIGINT)  # to tkview alone, as kill -INT would
    # Not interrupted, the fake program waits 600 s: the timeout fails the
    # test then (no wall-clock bound here: a busy machine is no failure).
    _, err = p.communicate(timeout=120)
    err = err.decode('utf-8', 'replace')
    assert p.returncode == 1, (p.returncode, err)
    assert 'waiting for the program to end' in err, err
    assert 'fake: interrupted 1 time(s)' in err, err  # tkview passed it on
    m = manifest(out)
    assert m['complete'] is False and m['capture']['interrupted'] is True
    assert list(kernels_by_name(m)) == ['add_kernel']
    no_work_folders()


@test('dumps')
def ctrl_c_on_the_terminal_reaches_the_program_once():
    out = fresh('ctrlc')
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(TMP)
        os.environ['TK_TEST_DUMPS'] = DUMPS
        os.execv(TKVIEW, [TKVIEW, 'capture', '-o', out, '--', sys.executable,
                          FAKE, 'hang', 'vector_add'])
    got = wait_for(fd, b'fake: ready')
    os.write(fd, b'\x03')  # Ctrl-C: the terminal signals the whole group
    got += read_rest(fd)
    _, status = os.waitpid(pid, 0)
    text = got.decode('utf-8', 'replace')
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1, (status, text)
    # The terminal's SIGINT only: tkview did not pass a second one on.
    assert 'fake: interrupted 1 time(s)' in text, text
    assert 'kernel compiled' in text, text  # the progress line was drawn
    m = manifest(out)
    assert m['complete'] is False and m['capture']['interrupted'] is True
    assert list(kernels_by_name(m)) == ['add_kernel']
    no_work_folders()


@test('dumps')
def existing_output_needs_force_and_must_be_a_bundle():
    out = fresh('existing')
    assert capture_fake(out, 'ok', 'vector_add')[0] == 0
    before = manifest(out)
    code, stdout, err = capture_fake(out, 'ok', 'softmax')
    assert code == 3 and 'exists' in err and '--force' in err, (code, err)
    assert stdout == '', 'the program ran although nothing may be written'
    assert manifest(out) == before
    code, _, err = capture_fake(out, 'ok', 'softmax', extra=('--force',))
    assert code == 0, err
    assert list(kernels_by_name(manifest(out))) == ['softmax_kernel']
    # --force never replaces what is not a bundle.
    notabundle = fresh('notabundle')
    os.makedirs(notabundle)
    with open(os.path.join(notabundle, 'important.txt'), 'w') as f:
        f.write('keep me')
    code, _, err = capture_fake(notabundle, 'ok', 'softmax',
                                extra=('--force',))
    assert code == 3 and 'not a tkview bundle' in err, (code, err)
    assert os.listdir(notabundle) == ['important.txt']
    # Nor one that holds what the capture reads: the folder the program
    # runs in, or the script itself.
    before = manifest(out)
    code, stdout, err = run('capture', '-o', out, '--force', '--', sys.executable, FAKE,
                            'ok', 'softmax', cwd=out)
    assert code == 3 and 'which the capture reads' in err, (code, err)
    assert stdout == '' and manifest(out) == before
    script = os.path.join(out, 'fake_copy.py')
    shutil.copy(FAKE, script)
    code, _, err = run('capture', '-o', out, '--force', '--', sys.executable, script,
                       'ok', 'softmax')
    assert code == 3 and 'contains ' + script in err, (code, err)
    assert manifest(out) == before
    no_work_folders()


@test()
def nothing_compiled_or_no_program_writes_nothing():
    out = fresh('nothing')
    code, _, err = run('capture', '-o', out, '--', sys.executable, '-c',
                       'print("no kernels here")')
    assert code == 3 and 'no kernel was compiled' in err, (code, err)
    assert not os.path.exists(out)
    code, _, err = run('capture', '-o', out, '--', '/nonexistent/program')
    assert code == 3 and 'cannot run /nonexistent/program' in err, (code, err)
    assert not os.path.exists(out)
    no_work_folders()


@test()
def bad_arguments_exit_2():
    assert run('capture')[0] == 2
    assert run('capture', '-o', 'x')[0] == 2
    assert run('capture', '--irloc', 'llir', '--', 'true')[0] == 2
    assert run('capture', '--mlir', EXAMPLE, '--', 'true')[0] == 2
    assert run('capture', '--pipeline', 'x', '--', 'true')[0] == 2
    assert run('capture', 'python3', 'x.py')[0] == 2  # no "--"
    assert run('capture', '--mlir', EXAMPLE, '--arch', 'gfx942')[0] == 2


@test()
def location_paths_never_place_files_outside_the_bundle():
    box = fresh('box')
    os.makedirs(os.path.join(box, 'outside'))
    secret = os.path.join(box, 'outside', 'secret.py')
    with open(secret, 'w') as f:
        f.write('SECRET = 1\n')
    out = os.path.join(box, 'paths')
    before = sorted(os.listdir(box))
    code, _, err = run('capture', '-o', out, '--', sys.executable, FAKE,
                       'paths', secret, cwd=box)
    assert code == 0, (code, err)
    assert sorted(os.listdir(box)) == sorted(before + ['paths'])
    assert os.listdir(os.path.join(box, 'outside')) == ['secret.py']
    for dirpath, dirnames, filenames in os.walk(out):
        for name in dirnames + filenames:
            assert SAFE.match(name), os.path.join(dirpath, name)
            full = os.path.join(dirpath, name)
            assert os.path.realpath(full).startswith(os.path.realpath(out) + '/')
            assert not os.path.islink(full), full
    m = manifest(out)
    named = {s['path']: s for s in m['sources']}
    named.update({s['path']: s for s in m['missing_sources']})
    # Both paths are recorded as the locations wrote them.
    assert '../../../../etc/passwd' in named, list(named)
    assert secret in named, list(named)
    copy = named[secret].get('file')
    assert copy and copy.startswith('sources/') and copy.endswith('secret.py')
    with open(os.path.join(out, copy)) as f:
        assert f.read() == 'SECRET = 1\n'
    for s in m['sources']:
        assert s['file'].startswith('sources/') and '..' not in s['file']


def nvdisasm_installed():
    home = os.environ.get('CUDA_HOME')
    return bool(shutil.which('nvdisasm') or
                (home and os.path.exists(os.path.join(home, 'bin', 'nvdisasm')))
                or os.path.exists('/usr/local/cuda/bin/nvdisasm'))


def fake_nvdisasm_bin(name):
    """A fake "python" that answers where Triton is with a folder holding a
    fake nvdisasm, which disassembles add_kernel, fails on softmax_kernel
    and logs each run to BOX/runs.txt.  Returns (box, python, nvdisasm)."""
    box = fresh(name)
    tbin = os.path.join(box, 'triton', 'backends', 'nvidia', 'bin')
    os.makedirs(tbin)
    py = os.path.join(box, 'python-fake')
    with open(py, 'w') as f:
        f.write('#!/bin/sh\n'
                'if [ "$1" = "-c" ]; then echo "%s"; exit 0; fi\n'
                'exec "%s" "$@"\n' % (tbin, sys.executable))
    nvd = os.path.join(tbin, 'nvdisasm')
    with open(nvd, 'w') as f:
        f.write('#!/bin/sh\n'
                'if [ "$1" = "--version" ]; then echo "fake nvdisasm"; '
                'echo "Build fake_12.8"; exit 0; fi\n'
                'for a; do last=$a; done\n'
                'echo "$1 $last" >>"%s"\n'
                'case "$1.$last" in\n'
                '  --print-life-ranges.*add_kernel.cubin) '
                'echo "// fake life ranges of $last";;\n'
                '  -c.*add_kernel.cubin) echo "// fake SASS of $last";;\n'
                '  *) echo "fake nvdisasm: cannot read $last" >&2; exit 3;;\n'
                'esac\n' % os.path.join(box, 'runs.txt'))
    os.chmod(py, 0o755)
    os.chmod(nvd, 0o755)
    return box, py, nvd


@test('dumps')
def nvdisasm_found_in_tritons_folder_and_its_failures_recorded():
    """No nvdisasm in PATH: tkview asks the program's Python where Triton is
    and uses backends/nvidia/bin/nvdisasm there.  A fake "python" answers
    with a folder holding a fake nvdisasm that disassembles add_kernel and
    fails on softmax_kernel."""
    if nvdisasm_installed():
        raise Skip('a real nvdisasm is installed here (PATH, CUDA_HOME or '
                   '/usr/local/cuda/bin): it would be found first')
    box, py, nvd = fake_nvdisasm_bin('fakebin')
    out = fresh('fakesass')
    env = dict(os.environ, TK_TEST_DUMPS=DUMPS)
    env.pop('TRITON_NVDISASM_PATH', None)
    p = subprocess.run([TKVIEW, 'capture', '-o', out, '--', py, FAKE, 'ok',
                        'vector_add', 'softmax'], cwd=TMP, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    err = p.stderr.decode()
    assert p.returncode == 0, err
    cap = manifest(out)['capture']
    assert cap['sass_tool'] == nvd, cap
    # Each kernel has a cubin under kernel_dump/ and one under cache/.
    assert cap['sass_made'] == 2 and cap['sass_failed'] == 2, cap
    ks = kernels_by_name(manifest(out))
    sass = read_kernel_file(os.path.join(out, ks['add_kernel']['stages']['sass']))
    assert sass.startswith(b'// fake SASS of '), 'not nvdisasm\'s output'
    # The life ranges: made by the same tool (Triton's), its version and
    # refusals recorded; the bundle keeps NAME.sass_lr beside the cubin
    # (format 4: NAME.sass_lr.zst, named by the manifest).
    assert cap['life_ranges_tool'] == nvd, cap
    assert cap['life_ranges_tool_version'] == 'Build fake_12.8', cap
    assert cap['life_ranges_made'] == 2 and cap['life_ranges_failed'] == 2, cap
    assert any('cannot read' in r and 'softmax_kernel.cubin' in r
               for r in cap['life_ranges_refused']), cap
    lr = os.path.join(out, ks['add_kernel']['files']['sass_lr'])
    assert os.path.dirname(lr) == os.path.dirname(
        os.path.join(out, ks['add_kernel']['files']['cubin'])), lr
    assert read_kernel_file(lr).startswith(b'// fake life ranges of ')
    assert not glob.glob(os.path.join(out, '*', 'softmax_kernel.sass_lr*'))
    assert 'sass_lr' not in ks['softmax_kernel']['files'], ks['softmax_kernel']
    # kernel_dump/ and cache/ hold the same bytes: each distinct cubin is
    # disassembled once per kind (issue 25), the copy takes its outcome.
    with open(os.path.join(box, 'runs.txt')) as f:
        runs = [l.split()[0] for l in f]
    assert runs.count('-c') == 2 and runs.count('--print-life-ranges') == 2, runs
    # capture's own steps timed in the manifest
    assert {'program', 'sass_and_lr', 'load', 'save'} <= set(cap['phase_seconds']), cap


@test('dumps')
def nvdisasm_runs_while_the_program_runs():
    """Issue 25: each cubin is disassembled as soon as its compile ended
    (its NAME.json in the cache), while the program still runs; the
    bundle is the one made after the program (the outputs and complaints
    name the cubins the capture holds, not the copies run beside it)."""
    if nvdisasm_installed():
        raise Skip('a real nvdisasm is installed here')
    box, py, nvd = fake_nvdisasm_bin('earlybin')
    runs = os.path.join(box, 'runs.txt')
    out = fresh('earlysass')
    env = dict(os.environ, TK_TEST_DUMPS=DUMPS)
    env.pop('TRITON_NVDISASM_PATH', None)
    p = subprocess.run([TKVIEW, 'capture', '-o', out, '--', py, FAKE,
                        'waitsass', runs, 'vector_add', 'softmax'], cwd=TMP,
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert b'fake: nvdisasm ran while I ran' in p.stdout, p.stdout
    cap = manifest(out)['capture']
    assert cap['cubins_disassembled_while_running'] == 2, cap
    assert cap['sass_made'] == 2 and cap['sass_failed'] == 2, cap
    assert cap['life_ranges_made'] == 2 and cap['life_ranges_failed'] == 2, cap
    with open(runs) as f:
        kinds = [l.split()[0] for l in f]
    assert kinds.count('-c') == 2 and kinds.count('--print-life-ranges') == 2, kinds
    # What the fake printed names the cubin it was given: as told of the
    # capture's own (kernel_dump/), as when it ran after the program.
    ks = kernels_by_name(manifest(out))
    sass = read_kernel_file(os.path.join(out, ks['add_kernel']['stages']['sass'])).decode()
    assert re.match(r'// fake SASS of \S*/run/kernel_dump/[^/]+/add_kernel\.cubin$',
                    sass.strip()), sass
    [refused] = [r for r in cap['life_ranges_refused'] if 'softmax_kernel' in r]
    assert re.search(r'cannot read \S*/run/kernel_dump/[^/]+/softmax_kernel\.cubin',
                     refused), refused
    assert '/early/' not in json.dumps(manifest(out)), manifest(out)
    no_work_folders()


@test('dumps')
def passes_option_narrows_the_dump_knobs():
    """--passes mlir leaves LLVM's print-after-all off, --passes none both
    pass dumps, whatever the user's environment had; the manifest says what
    was asked (absent in older bundles: all)."""
    envfile = os.path.join(TMP, 'passes.json')
    seen = {}
    for passes in ('all', 'mlir', 'none', None):
        out = fresh('passes-%s' % passes)
        extra = ('--passes', passes) if passes else ()
        p = subprocess.run([TKVIEW, 'capture', '-o', out, *extra, '--',
                            sys.executable, FAKE, 'env', envfile, 'vector_add'],
                           cwd=TMP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=dict(os.environ, TK_TEST_DUMPS=DUMPS,
                                    MLIR_ENABLE_DUMP='1', LLVM_IR_ENABLE_DUMP='1',
                                    TKVIEW_PYTHON_DIR=os.path.join(
                                        os.environ['TK_TEST_SRCDIR'], '..', 'compiler',
                                        'python')),
                           timeout=300)
        assert p.returncode == 0, p.stderr
        with open(envfile) as f:
            env = json.load(f)
        cap = manifest(out)['capture']
        # -print-changed is asked of the hook (a folder for each process to
        # say what it got) only with LLVM's dumps; this program imports no
        # Triton, so none said: print-after-all, what Triton does alone
        changed = env['TKVIEW_LLVM_CHANGED']
        seen[passes] = (env['MLIR_ENABLE_DUMP'], env['LLVM_IR_ENABLE_DUMP'], cap['passes'],
                        bool(changed and changed.endswith('llvm_mode')),
                        cap.get('llvm_dump_mode'))
    assert seen == {'all': ('1', '1', 'all', True, 'print-after-all'),
                    None: ('1', '1', 'all', True, 'print-after-all'),
                    'mlir': ('1', None, 'mlir', False, None),
                    'none': (None, None, 'none', False, None)}, seen
    # every front end says why there are no pass dumps: info (text, JSON)
    # and passes name the option, from the library's one sentence
    out = fresh('passes-none')
    code, _, err = capture_fake(out, 'ok', 'vector_add', extra=('--passes', 'none'))
    assert code == 0, err
    code, text, err = run('info', out)
    assert code == 0 and 'passes: pass dumps were not captured (`tkview capture --passes none`)' in text, (code, text, err)
    code, text, err = run('info', out, '--json')
    assert code == 0 and json.loads(text)['passes_asked'] == 'none', (code, text[:300], err)
    code, _, err = run('passes', out)
    assert code != 0 and 'were not captured (`tkview capture --passes none`)' in err, (code, err)
    report = fresh('passes-none-report')
    code, _, err = run('--html', report, out)
    assert code == 0, err
    pages = [os.path.join(r, f) for r, _, fs in os.walk(report) for f in fs if f.endswith('.html')]
    said = [p for p in pages if 'pass dumps were not captured (`tkview capture --passes none`)'
            in open(p, encoding='utf-8').read()]
    assert said, pages
    # with --kernel, --passes mlir still names the kernel for MLIR
    out = fresh('passes-kernel')
    code, _, err = capture_fake(out, 'env', envfile, 'vector_add',
                                extra=('--passes', 'mlir', '--kernel', 'add_kernel'))
    assert code == 0, err
    with open(envfile) as f:
        env = json.load(f)
    assert env['MLIR_ENABLE_DUMP'] == 'add_kernel' and env['LLVM_IR_ENABLE_DUMP'] is None
    assert env['TKVIEW_LLVM_OPTIONS'] is None
    for bad in (('--passes', 'llvm', '--', sys.executable, FAKE, 'ok', 'vector_add'),
                ('--passes', 'mlir', '--mlir', EXAMPLE)):
        code, _, err = run('capture', '-o', fresh('passes-bad'), *bad)
        assert code == 2 and '--passes' in err, (bad, code, err)
    no_work_folders()


@test('dumps')
def window_resize_reaches_the_program_after_nvdisasm_ran_beside_it():
    """A tool run beside the program (nvdisasm on a cubin, while the
    program runs) must leave the program's pty and SIGWINCH alone: the
    program first compiles (the fake's dumps) and waits for the fake
    nvdisasm's runs, then is resized as in the test above."""
    if nvdisasm_installed():
        raise Skip('a real nvdisasm is installed here')
    box, py, _ = fake_nvdisasm_bin('winchbin')
    prog = os.path.join(box, 'winch_after.py')
    with open(prog, 'w') as f:
        f.write('import subprocess, sys\n'
                'subprocess.run([sys.executable, %r, "waitsass", %r, "vector_add"],'
                ' stdout=sys.stderr, check=True)\n' % (FAKE, os.path.join(box, 'runs.txt'))
                + WINCH_PROGRAM)
    resized = []

    def resize_once(master, p, got):
        if not resized and b'size (80, 24)' in got:
            set_winsize(master, 33, 111)
            os.kill(p.pid, signal.SIGWINCH)
            resized.append(True)

    env = dict(os.environ, TK_TEST_DUMPS=DUMPS)
    env.pop('TRITON_NVDISASM_PATH', None)
    err = os.path.join(box, 'stderr.txt')
    _, got = run_on_pty([TKVIEW, 'capture', '-o', os.path.join(box, 'b'),
                         '--no-progress', '--', py, prog], env, cwd=box,
                        stderr_path=err, size=(24, 80), on_output=resize_once)
    with open(err, 'rb') as f:
        assert b'fake: nvdisasm ran while I ran' in f.read()
    assert b'winch (111, 33)\n' in got, got


@test('dumps')
def no_nvdisasm_no_life_ranges_said_and_capture_goes_on():
    """Without any nvdisasm (a Debian machine without CUDA) the capture
    still succeeds and its manifest says why there are no NAME.sass_lr."""
    if nvdisasm_installed():
        raise Skip('a real nvdisasm is installed here')
    out = fresh('nolr')
    code, _, err = capture_fake(out, 'ok', 'vector_add')
    assert code == 0, err
    cap = manifest(out)['capture']
    assert cap['life_ranges_missing'].startswith('nvdisasm was not found'), cap
    assert 'life_ranges_made' not in cap, cap
    assert not glob.glob(os.path.join(out, '*', '*.sass_lr*'))


# ---- the bundles captured on a GPU, opened here ---------------------------

SAMPLES = os.environ.get('TK_TEST_SAMPLES', os.path.join(ROOT, 'sample_dumps'))
TRITON_EXAMPLES = os.path.join(ROOT, 'compiler', 'examples', 'triton')


def line_of(path, needle):
    with open(path) as f:
        return [i for i, l in enumerate(f, 1) if needle in l][0]


def inlined_in_llir(name, kernel, helper_needle, call_needle):
    """In sample NAME (from compiler/examples/triton/NAME.py), the line
    holding HELPER_NEEDLE binds only in KERNEL, whose LLVM IR has it with
    the line holding CALL_NEEDLE as its caller."""
    script = os.path.join(TRITON_EXAMPLES, name + '.py')
    helper, call = line_of(script, helper_needle), line_of(script, call_needle)
    code, js, err = run('bind', os.path.join(SAMPLES, name), '--source',
                        '%s.py:%d' % (name, helper), '--json')
    assert code == 0, err
    [k] = json.loads(js)['kernels']
    assert k['name'] == kernel, k['name']
    stacks = [[(os.path.basename(f['file']), f['line']) for f in ln['stacks'][0]]
              for ln in k['stages']['llir']]
    assert [(name + '.py', helper), (name + '.py', call)] in \
        [st[:2] for st in stacks], stacks[:3]


@test()
def gpu_captured_samples_open_and_bind_without_a_gpu():
    """sample_dumps/ holds bundles tkview capture made on an H200; here,
    without a GPU or Triton, they load and bind every stage."""
    cases = [('vector_add_sum', 'add_sum_kernel',
              'block_sum = tl.sum(total, axis=0)'),
             ('fused_softmax', 'softmax_kernel', 'num = tl.exp(x)'),
             ('matmul_helper', 'matmul_kernel', 'acc = tl.dot(a, b, acc)')]
    for name, kernel, needle in cases:
        bundle = os.path.join(SAMPLES, name)
        m = manifest(bundle)
        assert m['complete'] is True and m['capture']['route'] == 'triton'
        assert m['command'][-1].endswith('/%s.py' % name), m['command']
        line = line_of(os.path.join(TRITON_EXAMPLES, name + '.py'), needle)
        code, js, err = run('bind', bundle, '--source',
                            '%s.py:%d' % (name, line), '--json')
        assert code == 0, err
        [k] = json.loads(js)['kernels']
        assert k['name'] == kernel
        for st in ('ttir', 'ttgir', 'llir', 'ptx', 'sass'):
            assert k['stages'].get(st), (name, st)
    # A helper's line reaches LLVM IR inlined at its call, in its kernel
    # only (layer_norm_gelu has two kernels).
    inlined_in_llir('matmul_helper', 'matmul_kernel',
                    'return tl.where(x >= 0, x, slope * x)',
                    'acc = leaky_relu(acc, 0.01)')
    inlined_in_llir('layer_norm_gelu', 'layer_norm_fwd',
                    'var = tl.sum(xc * xc, axis=0) / N',
                    'mean, xc, var = _mean_var(x, mask, N)')
    m = manifest(os.path.join(SAMPLES, 'add_sum_mlir'))
    assert m['compiler']['name'] == 'mlir' and m['complete'] is True
    assert 'sass' in m['kernels'][0]['stages'] or m['kernels'][0]['sass_missing']


# ---- the MLIR route ------------------------------------------------------

def example_line(needle):
    """1-based line of the example holding NEEDLE."""
    with open(EXAMPLE) as f:
        for i, line in enumerate(f, 1):
            if needle in line:
                return i
    raise AssertionError(needle)


@test('mlir')
def mlir_route_end_to_end():
    out = fresh('mlir')
    code, _, err = run('capture', '--mlir', EXAMPLE, '-o', out)
    assert code == 0, (code, err)
    m = manifest(out)
    assert m['complete'] is True
    assert m['compiler']['name'] == 'mlir'
    assert m['compiler']['version'].startswith('19.'), m['compiler']
    assert m['compiler']['target'] == 'cuda:90'
    [k] = m['kernels']
    assert k['name'] == 'add_sum'  # gpu.func @add_sum
    for st in ('ttir', 'ttgir', 'llir', 'ptx'):
        assert st in k['stages'], k['stages']
    assert sorted(p['kind'] for p in k['passes']) == ['llvm', 'mlir']
    if 'sass' not in k['stages']:
        assert k['sass_missing'], k
    assert [s['path'] for s in m['sources']] == [EXAMPLE]
    steps = [s['step'] for s in m['capture']['steps']]
    assert steps[:3] == ['mlir-opt (parse)', 'mlir-opt (lower)',
                         'mlir-translate'], steps
    # The helper's addition and where the kernel calls it.
    add = example_line('%s = arith.addf %a, %b')
    call = example_line('func.call @add')
    code, js, err = run('bind', out, '--source', 'add_sum.mlir:%d' % add,
                        '--json')
    assert code == 0, err
    stacks = {}
    for st, lines in json.loads(js)['kernels'][0]['stages'].items():
        stacks[st] = [[(os.path.basename(f['file']), f['line'])
                       for f in ln['stacks'][0]] for ln in lines or []]
    # ttir: the input as parsed, where the helper is still a function.
    assert [('add_sum.mlir', add)] in stacks['ttir'], stacks['ttir']
    # llir: inlined into the kernel, with the call as its caller frame.
    assert [('add_sum.mlir', add), ('add_sum.mlir', call)] in stacks['llir'], \
        stacks['llir']
    assert stacks['ptx'], 'no PTX for the addition'
    code, info, err = run('info', out)
    assert code == 0 and 'mlir 19.' in info, (info, err)


@test('mlir')
def mlir_route_bad_input_writes_nothing():
    bad = os.path.join(TMP, 'bad.mlir')
    with open(bad, 'w') as f:
        f.write('module {\n  func.func @f() {\n    %0 = arith.bogus\n  }\n}\n')
    out = fresh('mlirbad')
    code, _, err = run('capture', '--mlir', bad, '-o', out)
    assert code == 3, (code, err)
    assert 'bad.mlir:3' in err and 'error' in err, err  # mlir-opt's message
    assert not os.path.exists(out)
    no_work_folders()


@test('mlir')
def mlir_route_failing_pipeline_gives_incomplete_bundle():
    out = fresh('mlirfail')
    code, _, err = run('capture', '--mlir', EXAMPLE, '-o', out, '--pipeline',
                       'builtin.module(no-such-pass)')
    assert code == 1, (code, err)
    m = manifest(out)
    assert m['complete'] is False
    [k] = m['kernels']
    assert list(k['stages']) == ['ttir'], k['stages']
    results_ = [s['result'] for s in m['capture']['steps']]
    assert results_[0] == 'exited with status 0', results_
    assert results_[1].startswith('exited with status 1'), results_


# ---- AMD ------------------------------------------------------------------

SAMPLES = os.environ.get('TK_TEST_SAMPLES', os.path.join(ROOT, 'sample_dumps'))
AMD = os.path.join(SAMPLES, 'amd_gfx942')


def amd_line_numbers(kernel_folder, name, needle):
    """Lines of the sample's NAME.amdgcn holding NEEDLE (grep -n)."""
    with open(os.path.join(AMD, kernel_folder, name + '.amdgcn')) as f:
        return [i for i, l in enumerate(f, 1) if needle in l]


@test()
def amd_capture_keeps_amdgcn_and_hsaco():
    """The same knobs on an AMD compile (the fake writes the compile-only
    gfx942 capture's files where Triton would): .amdgcn and .hsaco kept,
    no SASS asked for, two kernels counted from the cache."""
    out = fresh('amd')
    code, stdout, stderr = capture_fake(out, 'amd', extra=('--no-progress',))
    assert code == 0, stderr
    assert stdout == 'fake: done\n', stdout
    # No warning at all: the LLVM dump headers of the AMD backend (the CGSCC
    # printer's joined header, "Printing <null> Function") read cleanly.
    assert 'warning' not in stderr, stderr
    m = manifest(out)
    assert m['compiler']['target'] == 'hip:gfx942', m['compiler']
    ks = kernels_by_name(m)
    assert set(ks) == {'add_sum_kernel', 'matmul_kernel'}, list(ks)
    for k in ks.values():
        assert set(k['stages']) == {'ttir', 'ttgir', 'llir', 'amdgcn'}, k['stages']
        assert k['stages']['amdgcn'].endswith(('.amdgcn', '.amdgcn.zst'))
        assert 'hsaco' in k['files'] and 'sass_missing' not in k, k
        assert 'amdgcn_missing' not in k, k
        # add_sum_kernel.json: "warp_size": 64, "waves_per_eu": 0
        assert k['metadata']['warp_size'] == 64 and k['metadata']['waves_per_eu'] == 0
    # matmul_kernel.amdgcn: ".vgpr_count:     76", ".sgpr_count:     28",
    # ".agpr_count:     16", "; Occupancy: 6"
    mm = ks['matmul_kernel']['metadata']
    assert (mm['registers'], mm['sgprs'], mm['agprs'], mm['occupancy']) == (76, 28, 16, 6), mm
    cap = m['capture']
    assert cap['kernels_compiled'] == 2, cap
    assert 'sass_tool' not in cap and 'amdgcn_tool' not in cap, cap
    # compile_gfx942.py line 58 is "acc = tl.dot(a, b, acc)"; its 8
    # v_mfma_f32_32x32x8_f16 are in the sample's matmul_kernel.amdgcn.
    mfma = amd_line_numbers('matmul_kernel-afb56eb9', 'matmul_kernel',
                            'v_mfma_f32_32x32x8_f16')
    assert len(mfma) == 8, mfma
    code, js, err = run('bind', out, '--source', 'compile_gfx942.py:58',
                        '--kernel', 'matmul_kernel', '--stage', 'amdgcn', '--json')
    assert code == 0, err
    lines = json.loads(js)['kernels'][0]['stages']['amdgcn']
    got = [l['line'] for l in lines if 'v_mfma_f32_32x32x8_f16' in l['text']]
    assert got == mfma, (got, mfma)
    no_work_folders()


@test()
def amd_target_is_told_and_checked():
    out = fresh('amd-target')
    envfile = os.path.join(TMP, 'amd-knobs.json')
    code, _, err = capture_fake(out, 'amd', extra=('--target', 'hip:gfx942'))
    assert code == 0, err
    cap = manifest(out)['capture']
    assert cap['target'] == 'hip:gfx942' and cap['target_mismatch'] == [], cap
    assert cap['env']['TKVIEW_TARGET'] == 'hip:gfx942', cap['env']
    # Another GPU than the one compiled for: a bundle, marked incomplete.
    out = fresh('amd-target-other')
    code, _, err = capture_fake(out, 'amd', extra=('--target', 'hip:gfx90a'))
    assert code == 1, (code, err)
    assert 'no kernel was compiled for it (the program compiled for hip:gfx942)' in err, err
    m = manifest(out)
    assert m['complete'] is False
    assert len(m['capture']['target_mismatch']) == 2, m['capture']
    # The program sees the target it is asked for.
    out = fresh('amd-target-env')
    code, _, err = run('capture', '-o', out, '--target', 'cuda:90', '--',
                       sys.executable, FAKE, 'env', envfile, 'none')
    with open(envfile) as f:
        assert json.load(f)['TKVIEW_TARGET'] == 'cuda:90'
    for bad in ('gfx942', 'hip:', 'rocm:gfx942', 'hip:gfx942;rm'):
        assert run('capture', '--target', bad, '--', 'true')[0] == 2, bad
    assert run('capture', '--mlir', EXAMPLE, '--target', 'hip:gfx942')[0] == 2
    no_work_folders()


def objdump_installed():
    return shutil.which('llvm-objdump-19') or os.path.exists(
        '/usr/lib/llvm-19/bin/llvm-objdump')


@test()
def amd_code_objects_alone_are_disassembled():
    """No .amdgcn: llvm-objdump's disassembly of the .hsaco (line numbers,
    innermost frames) stands in, and binds as an independent count says."""
    if not objdump_installed():
        raise Skip('llvm-objdump-19 not installed (apt-get install llvm-19)')
    out = fresh('amd-noasm')
    code, _, err = capture_fake(out, 'amd-noasm')
    assert code == 0, err
    m = manifest(out)
    cap = m['capture']
    # two kernels, each in kernel_dump/ and in the cache
    assert cap['amdgcn_made'] == 4 and cap['amdgcn_failed'] == 0, cap
    for k in m['kernels']:
        assert k['stages']['amdgcn'].endswith(('.amdgcn_dis', '.amdgcn_dis.zst')), k['stages']
    cov = subprocess.run([sys.executable, os.path.join(ROOT, 'tests', 'e2e', 'coverage.py'),
                          TKVIEW, out], stdout=subprocess.PIPE, text=True)
    assert cov.returncode == 0, cov.stdout
    assert 'amdgcn' in cov.stdout
    # Its callers come from the LLVM IR: leaky_relu (line 38) inlined at 62.
    code, js, err = run('bind', out, '--source', 'compile_gfx942.py:62',
                        '--kernel', 'matmul_kernel', '--stage', 'amdgcn', '--json')
    assert code == 0, err
    lines = json.loads(js)['kernels'][0]['stages']['amdgcn']
    inferred = [l for l in lines if l['stacks_inferred']]
    assert inferred, lines[:3]
    frames = [(os.path.basename(f['file']), f['line']) for f in inferred[0]['stacks'][0]]
    assert frames == [('compile_gfx942.py', 38), ('compile_gfx942.py', 62)], frames
    no_work_folders()


@test('dumps')
def kernels_compiled_counts_cache_entries():
    """Triton 3.6 names TRITON_DUMP_DIR folders after the source: three
    configurations of autotuned_matmul in one folder (`ls cache/*/__grp__*`
    lists 3) are three kernels compiled."""
    out = fresh('onefolder')
    code, _, err = capture_fake(out, 'onefolder', 'autotuned_matmul')
    assert code == 0, err
    assert manifest(out)['capture']['kernels_compiled'] == 3
    no_work_folders()


@test('dumps')
def kernels_compiled_counts_inductors_own_caches():
    """Inductor's max-autotune compiles its choices into a Triton cache of
    its own (TORCHINDUCTOR_CACHE_DIR/tmpXXXX/triton/): autotuned_matmul's 3
    compiles written there (`ls cache/*/__grp__*` lists 3), none in
    TRITON_CACHE_DIR, are three kernels compiled, and the bundle has them."""
    out = fresh('inductorcache')
    code, _, err = capture_fake(out, 'inductorcache', 'autotuned_matmul')
    assert code == 0, err
    assert '3 kernels compiled' in err, err
    m = manifest(out)
    assert m['capture']['kernels_compiled'] == 3, m['capture']
    assert len(m['kernels']) == 3, [k['name'] for k in m['kernels']]
    no_work_folders()


@test('dumps')
def a_code_generator_left_out_is_said_once():
    """A Python process whose hook could not keep print-after-all for LLVM's
    code generator says "print-changed" alone (compiler/python/
    sitecustomize.py): its code generator's IR passes print nothing under
    -print-changed (sample_dumps/raw/vector_add_sum_changed's changed/ has
    no "(codegenprepare)" header, all/ has one).  capture says so once on
    stderr, counting the processes; not when every process kept it."""
    hook = os.path.join(os.environ['TK_TEST_SRCDIR'], '..', 'compiler', 'python')
    said = {}
    for name, modes in (('both', ('print-changed', 'print-changed')),
                        ('one', ('print-changed, code generator print-after-all',
                                 'print-changed')),
                        ('kept', ('print-changed, code generator print-after-all',) * 2)):
        out = fresh('llvmmode-' + name)
        p = subprocess.run([TKVIEW, 'capture', '-o', out, '--', sys.executable, FAKE,
                            'llvmmode', *modes, 'vector_add'],
                           cwd=TMP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=dict(os.environ, TK_TEST_DUMPS=DUMPS, TKVIEW_PYTHON_DIR=hook),
                           timeout=300)
        err = p.stderr.decode('utf-8', 'replace')
        assert p.returncode == 0, err
        lines = [x for x in err.splitlines() if 'code generator ran under -print-changed' in x]
        said[name] = (len(lines), lines[0].split(' in ')[1].split(' (')[0] if lines else None,
                      manifest(out)['capture']['llvm_dump_mode'])
        if lines:
            assert 'its IR passes' in lines[0] and 'TKVIEW_LLVM_DUMPS=all' in lines[0], lines
    assert said == {'both': (1, '2 Python processes', 'print-changed'),
                    'one': (1, '1 Python process', 'mixed'),
                    'kept': (0, None, 'print-changed, code generator print-after-all')}, said
    no_work_folders()


@test('dumps')
def triton_s_own_sass_is_skipped_where_nvdisasm_is():
    """Where tkview finds nvdisasm before the program (TRITON_NVDISASM_PATH
    first), it asks the hook to skip Triton's own NAME.sass
    (TKVIEW_TRITON_SASS=skip; test_triton_sass.py has the hook's side);
    where it finds none, Triton's stays."""
    hook = os.path.join(os.environ['TK_TEST_SRCDIR'], '..', 'compiler', 'python')
    envfile = os.path.join(TMP, 'sass-env.json')
    tool = os.path.join(TMP, 'fake-nvdisasm')
    with open(tool, 'w') as f:
        f.write('#!/bin/sh\nexit 1\n')
    os.chmod(tool, 0o755)
    cases = [('found', dict(TRITON_NVDISASM_PATH=tool), 'skip')]
    if not any(os.access(os.path.join(d, 'nvdisasm'), os.X_OK) for d in
               ('/usr/local/cuda/bin', os.path.join(os.environ.get('CUDA_HOME', '/nonexistent'),
                                                     'bin'))):
        cases.append(('none', dict(PATH='/usr/bin:/bin'), None))
    for name, extra, want in cases:
        env = dict(os.environ, TK_TEST_DUMPS=DUMPS, TKVIEW_PYTHON_DIR=hook, **extra)
        if name == 'none':
            env.pop('TRITON_NVDISASM_PATH', None)
        out = fresh('sass-' + name)
        p = subprocess.run([TKVIEW, 'capture', '-o', out, '--', sys.executable, FAKE, 'env',
                            envfile, 'vector_add'], cwd=TMP, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=300)
        assert p.returncode == 0, p.stderr.decode()
        with open(envfile) as f:
            assert json.load(f)['TKVIEW_TRITON_SASS'] == want, (name, want)
    no_work_folders()


print('1..%d' % len(results))
for i, (name, err) in enumerate(results, 1):
    if err is None:
        print('ok %d - %s' % (i, name))
    elif err.startswith('SKIP'):
        print('ok %d - %s # %s' % (i, name, err))
    else:
        print('not ok %d - %s' % (i, name))
        for line in err.splitlines():
            print('# ' + line)
shutil.rmtree(TMP, ignore_errors=True)
