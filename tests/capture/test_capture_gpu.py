#!/usr/bin/env python3
"""`tkview capture` on a GPU machine with real Triton: the three example
programs of compiler/examples/triton/, and a real capture interrupted half
way.  Where no CUDA GPU with torch and Triton is found (CI), every test is
skipped with a message saying so.  Prints TAP.

Usage: test_capture_gpu.py TKVIEW
Set TK_CAPTURE_KEEP=DIR to keep the bundles made (DIR/NAME.tkview).

Expected lines are found in the example sources by their text (quoted in the
code), never taken from tkview's output.
"""
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TKVIEW = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(HERE)), 'compiler',
                        'examples', 'triton')
KEEP = os.environ.get('TK_CAPTURE_KEEP')
TMP = tempfile.mkdtemp(prefix='tkview-capture-gpu-')
results = []


def probe():
    try:
        p = subprocess.run(
            [sys.executable, '-c', 'import torch, triton; '
             'assert torch.cuda.is_available(); print(triton.__version__)'],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return 'cannot run python: %r' % e
    if p.returncode != 0:
        last = p.stderr.decode('utf-8', 'replace').strip().splitlines()
        return 'no CUDA GPU with torch and Triton here (%s)' % (
            last[-1] if last else 'import failed')
    return None


WHY_NOT = probe()


def test(fn):
    if WHY_NOT:
        results.append((fn.__name__, 'SKIP ' + WHY_NOT))
        return fn
    t0 = time.time()
    try:
        fn()
        results.append((fn.__name__, None))
    except Exception as e:
        results.append((fn.__name__, repr(e)))
    print('# %s: %.1f s' % (fn.__name__, time.time() - t0))
    return fn


def run(*args, timeout=900):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout, cwd=TMP)
    return (p.returncode, p.stdout.decode('utf-8', 'replace'),
            p.stderr.decode('utf-8', 'replace'))


def source_line(path, needle, nth=1):
    with open(path) as f:
        hits = [i for i, line in enumerate(f, 1) if needle in line]
    return hits[nth - 1]


def capture_example(name, script=None, script_is_source=True):
    out = os.path.join(KEEP or TMP, name + '.tkview')
    shutil.rmtree(out, ignore_errors=True)
    script = script or os.path.join(EXAMPLES, name + '.py')
    t0 = time.time()
    code, stdout, stderr = run('capture', '-o', out, '--', sys.executable,
                               script)
    print('# capture of %s: %.1f s' % (name, time.time() - t0))
    print('# ' + '\n# '.join(stderr.strip().splitlines()[-6:]))
    assert code == 0, (code, stderr[-3000:])
    assert '%s ok' % name in stdout, stdout  # the program's own output
    for dump_text in ('IR Dump', 'Running pass', '!DILocation'):
        assert dump_text not in stderr, dump_text
    with open(os.path.join(out, 'manifest.json')) as f:
        m = json.load(f)
    assert m['complete'] is True
    assert m['compiler']['name'] == 'triton', m['compiler']
    assert m['capture']['sass_tool'], m['capture']
    for k in m['kernels']:
        assert set(k['stages']) == {'ttir', 'ttgir', 'llir', 'ptx', 'sass'}, k
        assert k['stages']['sass'].endswith(('.sass_gi', '.sass_gi.zst'))
        with open(os.path.join(out, k['stages']['sass'])) as f:
            assert '//## File' in f.read()  # nvdisasm -gi line info
        assert k['metadata']['registers'] > 0, k['metadata']
        assert 'spill_bytes' in k['metadata'] and 'shared_bytes' in k['metadata']
        assert sorted(p['kind'] for p in k['passes']) == ['llvm', 'mlir'], k
    if script_is_source:
        assert any(s['path'] == script for s in m['sources']), m['sources']
    return out, script, m


def bind(out, spec, kernel):
    code, js, err = run('bind', out, '--source', spec, '--kernel', kernel,
                        '--json')
    assert code == 0, err
    return json.loads(js)['kernels'][0]['stages']


def frames(line):
    return [(os.path.basename(f['file']), f['line']) for f in line['stacks'][0]]


@test
def vector_add_sum():
    out, script, m = capture_example('vector_add_sum')
    assert [k['name'] for k in m['kernels']] == ['add_sum_kernel']
    line = source_line(script, 'block_sum = tl.sum(total, axis=0)')
    stages = bind(out, 'vector_add_sum.py:%d' % line, 'add_sum_kernel')
    for st in ('ttir', 'ttgir', 'llir', 'ptx', 'sass'):
        assert stages.get(st), st
    # tl.sum's code comes from triton/language/standard.py, inlined here.
    assert any(frames(x)[0][0] == 'standard.py' for x in stages['llir'])


@test
def fused_softmax():
    out, script, m = capture_example('fused_softmax')
    assert [k['name'] for k in m['kernels']] == ['softmax_kernel']
    assert m['kernels'][0]['metadata']['num_warps'] == 8  # num_warps=8
    line = source_line(script, 'num = tl.exp(x)')
    stages = bind(out, 'fused_softmax.py:%d' % line, 'softmax_kernel')
    assert stages.get('ptx') and stages.get('sass')


@test
def matmul_helper():
    out, script, m = capture_example('matmul_helper')
    assert [k['name'] for k in m['kernels']] == ['matmul_kernel']
    helper = source_line(script, 'return tl.where(x >= 0, x, slope * x)')
    call = source_line(script, 'acc = leaky_relu(acc, 0.01)')
    stages = bind(out, 'matmul_helper.py:%d' % helper, 'matmul_kernel')
    want = [('matmul_helper.py', helper), ('matmul_helper.py', call)]
    assert any(frames(x)[:2] == want for x in stages['llir']), stages['llir']
    dot = source_line(script, 'acc = tl.dot(a, b, acc)')
    stages = bind(out, 'matmul_helper.py:%d' % dot, 'matmul_kernel')
    assert any('wgmma' in x['text'] for x in stages['ptx']), 'no wgmma'


@test
def interrupted_real_capture():
    """A program that compiles one kernel and then waits: Ctrl-C (SIGINT to
    tkview, passed on) gives an incomplete bundle holding that kernel."""
    prog = os.path.join(TMP, 'compile_then_wait.py')
    with open(prog, 'w') as f:
        f.write('import sys, time\n'
                'sys.path.insert(0, %r)\n'
                'import vector_add_sum\n'
                'vector_add_sum.main()\n'
                'print("ready", flush=True)\n'
                'time.sleep(600)\n' % EXAMPLES)
    out = os.path.join(KEEP or TMP, 'interrupted.tkview')
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.Popen([TKVIEW, 'capture', '-o', out, '--', sys.executable,
                          prog], cwd=TMP, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    line = p.stdout.readline()
    while line and b'ready' not in line:
        line = p.stdout.readline()
    assert line, 'the program ended before it was ready'
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=300)
    err = err.decode('utf-8', 'replace')
    assert p.returncode == 1, (p.returncode, err[-3000:])
    assert 'KeyboardInterrupt' in err, err[-3000:]
    with open(os.path.join(out, 'manifest.json')) as f:
        m = json.load(f)
    assert m['complete'] is False and m['capture']['interrupted'] is True
    assert [k['name'] for k in m['kernels']] == ['add_sum_kernel']
    assert 'sass' in m['kernels'][0]['stages']


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


@test
def autotune_configs_are_separate_kernels():
    prog = write('autotuned_add.py', '''import torch, triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=2),
                          triton.Config({"BLOCK": 1024}, num_warps=4)],
                 key=["n"])
@triton.jit
def autotuned_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=mask), mask=mask)

n = 1 << 20
x = torch.rand(n, device="cuda"); y = torch.rand(n, device="cuda")
out = torch.empty_like(x)
autotuned_add[lambda m: (triton.cdiv(n, m["BLOCK"]),)](x, y, out, n)
torch.testing.assert_close(out, x + y)
print("autotuned_add ok")
''')
    out, _, m = capture_example('autotuned_add', prog)
    ks = [k for k in m['kernels'] if k['name'] == 'autotuned_add']
    assert len(ks) == 2, [(k['name'], k['hash']) for k in m['kernels']]
    assert len({k['hash'] for k in ks}) == 2
    assert sorted(k['metadata']['num_warps'] for k in ks) == [2, 4]


@test
def torch_compile_program():
    prog = write('compiled_gelu.py', '''import torch

@torch.compile
def f(x, y):
    return torch.nn.functional.gelu(x) * y + 1.0

x = torch.randn(4096, 512, device="cuda"); y = torch.randn(4096, 512, device="cuda")
torch.testing.assert_close(f(x, y), torch.nn.functional.gelu(x) * y + 1.0)
print("compiled_gelu ok")
''')
    # The kernels' locations point into TorchInductor's generated code, not
    # into the program.
    out, _, m = capture_example('compiled_gelu', prog, script_is_source=False)
    assert m['kernels'], m
    gen = [s for s in m['sources'] if '/run/inductor/' in s['path']]
    assert gen, m['sources']  # TorchInductor's generated Python, copied
    for s in gen:
        assert os.path.getsize(os.path.join(out, s['file'])) > 0


@test
def ctrl_c_during_a_real_capture():
    """Ctrl-C on a terminal while the second kernel compiles: the first
    kernel is kept whole, the bundle is marked incomplete."""
    prog = write('two_kernels.py', '''import sys, time
sys.path.insert(0, %r)
import vector_add_sum, matmul_helper
vector_add_sum.main()
print("ready", flush=True)
matmul_helper.main()
time.sleep(600)
''' % EXAMPLES)
    out = os.path.join(KEEP or TMP, 'ctrl_c.tkview')
    shutil.rmtree(out, ignore_errors=True)
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(TMP)
        os.execv(TKVIEW, [TKVIEW, 'capture', '-o', out, '--', sys.executable,
                          prog])
    got = b''
    end = time.time() + 300
    while b'ready' not in got and time.time() < end:
        r, _, _ = select.select([fd], [], [], 5)
        if r:
            got += os.read(fd, 65536)
    assert b'ready' in got, got[-3000:]
    os.write(fd, b'\x03')
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
    _, status = os.waitpid(pid, 0)
    text = got.decode('utf-8', 'replace')
    print('# ' + '\n# '.join(text.strip().splitlines()[-8:]))
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1, (status, text[-3000:])
    with open(os.path.join(out, 'manifest.json')) as f:
        m = json.load(f)
    assert m['complete'] is False and m['capture']['interrupted'] is True
    ks = {k['name']: k for k in m['kernels']}
    assert 'add_sum_kernel' in ks and 'sass' in ks['add_sum_kernel']['stages']


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
