#!/usr/bin/env python3
"""A stand-in for a Triton program, for testing `tkview capture` without a
GPU: it writes real Triton 3.6 dump files (from the shared captures) where
Triton's dump knobs say, the way Triton would, then ends as MODE says.

Usage: fake_triton.py MODE [ARGS...]   (TK_TEST_DUMPS names the captures)

  ok CAP...          every capture's dumps, "fake: done" on stdout, exit 0
  crash CAP1 CAP2    CAP1 whole, then CAP2 half written (kernel_dump stages
                     up to TTGIR, half of its MLIR dumps, a third of its
                     stderr), then SIGSEGV: a compiler crash half way
  killed CAP         CAP whole, then SIGKILL
  fail CAP           CAP whole, then a Python traceback and exit status 1
  hang CAP           CAP whole, "fake: ready" on stdout, then waits for
                     SIGINT and says how many it got (exit status 130)
  paths SECRET       one kernel whose locations name ../../../../etc/passwd
                     and the absolute path SECRET
  env FILE           writes the dump knobs it got to FILE, then as "ok" with
                     no capture
  amd                sample_dumps/amd_gfx942 (TK_TEST_SAMPLES) written the
                     way Triton's AMD backend writes it (.amdgcn, .hsaco,
                     NAME.json and __grp__ in the cache, the pass dumps)
  amd-noasm          the same without the .amdgcn files (code objects only)
  onefolder CAP      CAP's kernel_dump folders written into one folder, as
                     Triton 3.6 names them after the source (configurations
                     of one kernel share it); the cache as it is
  inductorcache CAP  CAP's kernel_dump, and its cache written where Inductor
                     compiles when a program sets force_disable_caches (as
                     max-autotune's benchmarks do): a Triton cache of its
                     own, TORCHINDUCTOR_CACHE_DIR/tmpXXXX/triton/, none in
                     TRITON_CACHE_DIR
  autotune CAP       CAP's dumps, then a stand-in for Triton 3.6's
                     triton.runtime.autotuner (Config, Autotuner.run setting
                     configs_timings and best_config) imported and run on
                     two configurations: what tkview's Python hook wraps;
                     says "fake: user site ran" when the user's own
                     sitecustomize set TK_USER_SITE
  diag CAP           CAP whole, then what Triton's diagnostics knobs print
                     (MLIR_ENABLE_DIAGNOSTICS, TRITON_DUMP_PTXAS_LOG): an
                     MLIR remark with its note on stderr at
                     vector_add.py:16:15, ptxas's log of add_kernel (a C7511
                     warning, spills) and, knob or not, Triton's banner of a
                     C7602 fatal at PTX line 61 on stdout, with bytes no
                     terminal would print as text and whether stdout is a
                     tty
  compiles CAP1 CAP2 CAP1 compiled here and CAP2 in a child process at the
                     same time (as torch.compile's parallel workers do), each
                     through the stage hook that tkview's Python hook puts in
                     triton.knobs (tests/capture/fake_pkg must be on
                     PYTHONPATH): its MLIR dumps written to fd 2 by the
                     "ttir" stage, its LLVM dumps, a message and an MLIR
                     remark with its note by "llir",
                     in pieces, the two processes taking turns, and a line
                     of ptxas's log on stdout
  waitsass RUNS CAP... every capture's dumps, then waits (at most 90 s)
                     until RUNS (the log a fake nvdisasm keeps of its runs)
                     holds a SASS run and a life-range run per capture (one
                     kernel each), and says on stdout whether they came
                     while it still ran
  llvmmode SAID1 SAID2 CAP   SAID1 and SAID2 written where tkview's hook says
                     which LLVM dumps a process got ($TKVIEW_LLVM_CHANGED/PID,
                     as for two processes), then CAP as "ok"
  sample DIR         the stage files of one kernel folder of a tkview bundle
                     (DIR, e.g. sample_dumps/matmul_profile/matmul_pipelined-
                     bc33df85) as Triton's kernel dump of that kernel; no
                     pass dumps
"""
import gzip
import json
import os
import shutil
import signal
import sys
import time

DUMPS = os.environ.get('TK_TEST_DUMPS', '')
MODE = sys.argv[1]
ARGS = sys.argv[2:]


def knob(name):
    value = os.environ.get(name)
    if not value:
        sys.exit('fake_triton: %s is not set' % name)
    return value


def copy_tree(src, dst, keep=lambda name: True):
    for entry in sorted(os.listdir(src)):
        s = os.path.join(src, entry)
        d = os.path.join(dst, entry)
        os.makedirs(d, exist_ok=True)
        for f in sorted(os.listdir(s)):
            if keep(f):
                shutil.copyfile(os.path.join(s, f), os.path.join(d, f))


def write_stderr(data):
    for i in range(0, len(data), 1 << 16):
        sys.stderr.buffer.write(data[i:i + (1 << 16)])
    sys.stderr.flush()


def dump(cap, fraction=1.0, keep=lambda name: True):
    root = os.path.join(DUMPS, cap)
    copy_tree(os.path.join(root, 'kernel_dump'), knob('TRITON_DUMP_DIR'), keep)
    if fraction == 1.0:
        copy_tree(os.path.join(root, 'cache'), knob('TRITON_CACHE_DIR'))
    # as Triton: pass dumps only where their knobs ask (capture --passes)
    if os.environ.get('MLIR_ENABLE_DUMP'):
        with open(os.path.join(root, 'mlir_passes.txt'), 'rb') as f:
            mlir = f.read()
        with open(knob('MLIR_DUMP_PATH'), 'ab') as f:
            f.write(mlir[:int(len(mlir) * fraction)] if fraction < 1 else mlir)
    if os.environ.get('LLVM_IR_ENABLE_DUMP'):
        with open(os.path.join(root, 'stderr.txt'), 'rb') as f:
            err = f.read()
        write_stderr(err[:int(len(err) * fraction / 1.5)] if fraction < 1 else err)


def dump_amd(with_asm=True):
    """The sample AMD bundle as Triton leaves it: per kernel a kernel_dump
    folder and a cache entry (whose __grp__NAME.json Triton writes last),
    the MLIR dumps in MLIR_DUMP_PATH and the LLVM ones on stderr."""
    root = os.path.join(os.environ['TK_TEST_SAMPLES'], 'amd_gfx942')
    with open(os.path.join(root, 'manifest.json')) as f:
        m = json.load(f)
    mlir, llvm = b'', b''
    for i, k in enumerate(m['kernels']):
        name, folder = k['name'], os.path.join(root, k['folder'])
        exts = ['ttir', 'ttgir', 'llir', 'hsaco'] + (['amdgcn'] if with_asm else [])
        for where, extra in (('TRITON_DUMP_DIR', []),
                             ('TRITON_CACHE_DIR', ['json', 'source'])):
            d = os.path.join(knob(where), 'AMD%sKERNEL%d' % (where[7:11], i))
            os.makedirs(d)
            for ext in exts + extra:
                shutil.copyfile(os.path.join(folder, name + '.' + ext),
                                os.path.join(d, name + '.' + ext))
            if extra:
                with open(os.path.join(d, '__grp__%s.json' % name), 'w') as f:
                    json.dump({'child_paths': {name + '.' + e: os.path.join(d, name + '.' + e)
                                               for e in exts + extra}}, f)
        for p in k.get('passes', []):
            with gzip.open(os.path.join(root, p['file'])) as f:
                if p['kind'] == 'mlir':
                    mlir += f.read()
                else:
                    llvm += f.read()
    with open(knob('MLIR_DUMP_PATH'), 'ab') as f:
        f.write(mlir)
    write_stderr(llvm)


if MODE == 'ok':
    # A warning before the dumps and a message after them: both are the
    # program's own and must reach the terminal.
    write_stderr(b'/tmp/fake.py:3: UserWarning: a warning before compiling\n')
    for cap in ARGS:
        dump(cap)
    write_stderr(b'fake: a message after the dumps\n')
    print('fake: done', flush=True)
elif MODE == 'crash':
    dump(ARGS[0])
    print('fake: first kernel compiled', flush=True)
    dump(ARGS[1], 0.5, keep=lambda f: f.endswith(('.ttir', '.ttgir')))
    os.kill(os.getpid(), signal.SIGSEGV)
elif MODE == 'killed':
    dump(ARGS[0])
    os.kill(os.getpid(), signal.SIGKILL)
elif MODE == 'fail':
    dump(ARGS[0])
    raise RuntimeError('fake: the program failed after compiling')
elif MODE == 'hang':
    # Counts the SIGINTs it gets: a Ctrl-C must arrive once, not once from
    # the terminal and once more from tkview.
    got = []
    signal.signal(signal.SIGINT, lambda signo, frame: got.append(signo))
    dump(ARGS[0])
    print('fake: ready', flush=True)
    end = time.time() + 600
    while not got and time.time() < end:
        time.sleep(0.05)
    time.sleep(1.0)  # cleaning up: a second SIGINT would land here
    sys.stderr.write('fake: interrupted %d time(s)\n' % len(got))
    sys.exit(130)
elif MODE == 'paths':
    secret = ARGS[0]
    folder = os.path.join(knob('TRITON_DUMP_DIR'), 'PATHSHASH')
    os.makedirs(folder)
    ttir = ('#loc = loc("../../../../etc/passwd":1:1)\n'
            '#loc1 = loc("%s":2:3)\n'
            'module {\n'
            '  tt.func public @paths_kernel() attributes {noinline = false} {\n'
            '    tt.return loc(#loc1)\n'
            '  } loc(#loc)\n'
            '} loc(#loc)\n' % secret)
    with open(os.path.join(folder, 'paths_kernel.ttir'), 'w') as f:
        f.write(ttir)
    print('fake: done', flush=True)
elif MODE in ('amd', 'amd-noasm'):
    dump_amd(with_asm=MODE == 'amd')
    print('fake: done', flush=True)
elif MODE == 'onefolder':
    root = os.path.join(DUMPS, ARGS[0])
    one = os.path.join(knob('TRITON_DUMP_DIR'), 'ONEFOLDER')
    os.makedirs(one)
    src = os.path.join(root, 'kernel_dump')
    for entry in sorted(os.listdir(src)):
        for f in sorted(os.listdir(os.path.join(src, entry))):
            shutil.copyfile(os.path.join(src, entry, f), os.path.join(one, f))
    copy_tree(os.path.join(root, 'cache'), knob('TRITON_CACHE_DIR'))
    print('fake: done', flush=True)
elif MODE == 'inductorcache':
    root = os.path.join(DUMPS, ARGS[0])
    copy_tree(os.path.join(root, 'kernel_dump'), knob('TRITON_DUMP_DIR'))
    copy_tree(os.path.join(root, 'cache'),
              os.path.join(knob('TORCHINDUCTOR_CACHE_DIR'), 'tmpq1w2e3r4', 'triton'))
    print('fake: done', flush=True)
elif MODE == 'diag':
    # The texts as Triton 3.6 prints them (sample_dumps/raw/diag_*): the
    # remark on stderr when the knob asks; on stdout ptxas's log of a
    # successful run, print(log) when TRITON_DUMP_PTXAS_LOG is true (its
    # getenv_bool), and the banner of a failed run, which make_cubin
    # prints whether or not the knob is set.
    dump(ARGS[0])
    src = '/tmp/capture/vector_add/src/vector_add.py'
    if os.environ.get('MLIR_ENABLE_DIAGNOSTICS') == 'warnings,remarks':
        write_stderr((src + ':16:15: remark: fake remark about the store\n'
                      '    tl.store(output_ptr + offsets, output, mask=mask)\n'
                      '              ^\n' +
                      src + ':16:15: note: a note about it\n').encode())
    out = sys.stdout.buffer
    out.write(b'fake: before compiling \xff\xfe\r\n')
    out.write(b'fake: stdout is a tty: %s\n' % str(sys.stdout.isatty()).encode())
    if os.environ.get('TRITON_DUMP_PTXAS_LOG', '').lower() in ('1', 'true', 'yes', 'on'):
        out.write(b"ptxas info    : (C7511) Potential Performance Loss: wgmma.mma_async "
                  b"instructions are serialized due to insufficient register resources "
                  b"for the wgmma pipeline in the function 'add_kernel'\n"
                  b"ptxas info    : 0 bytes gmem\n"
                  b"ptxas info    : Compiling entry function 'add_kernel' for 'sm_90a'\n"
                  b"ptxas info    : Function properties for add_kernel\n"
                  b"    48 bytes stack frame, 40 bytes spill stores, 44 bytes spill loads\n"
                  b"ptxas info    : Used 26 registers, used 0 barriers, 384 bytes cmem[0]\n"
                  b"ptxas info    : Compile time = 1.0 ms\n\n")
        out.flush()
    out.write(b"\n\n================================================================\n"
              b"Internal Triton PTX codegen error\n"
              b"`ptxas` stderr:\n"
              b"ptxas fatal   : (C7602) Insufficient registers (8) to compile "
              b"instruction at line 61 in function add_kernel. Try to compile "
              b"with register target of 16 or higher.\n"
              b"ptxas fatal   : Ptx assembly aborted due to errors\n\n"
              b"Repro command: ptxas -lineinfo -v --gpu-name=sm_90a /tmp/x.ptx -o /tmp/x.ptx.o\n\n\n"
              b"//\n// Generated by LLVM NVPTX Back-End\n//\n\n"
              b"================================================================\n"
              b"please share the reproducer above with Triton project.\n\n")
    out.write(b'fake: done, no newline at the end')
    out.flush()
elif MODE == 'env':
    names = ['TRITON_ALWAYS_COMPILE', 'MLIR_ENABLE_DUMP', 'MLIR_DUMP_PATH',
             'LLVM_IR_ENABLE_DUMP', 'TRITON_KERNEL_DUMP', 'TRITON_DUMP_DIR',
             'TRITON_CACHE_DIR', 'TORCHINDUCTOR_CACHE_DIR',
             'TORCHINDUCTOR_COMPILE_THREADS', 'USE_IR_LOC', 'TKVIEW_TARGET',
             'MLIR_ENABLE_DIAGNOSTICS', 'TRITON_DUMP_PTXAS_LOG', 'TKVIEW_LLVM_OPTIONS',
             'TKVIEW_LLVM_CHANGED', 'TKVIEW_TRITON_SASS']
    with open(ARGS[0], 'w') as f:
        json.dump({n: os.environ.get(n) for n in names}, f)
    dump(ARGS[1])
elif MODE == 'llvmmode':
    # What tkview's hook writes for each Python process that asked LLVM for
    # -print-changed ($TKVIEW_LLVM_CHANGED/PID): ARGS[0] for this process
    # and ARGS[1] for another one (a compile worker), then CAP as "ok".
    for pid, said in ((os.getpid(), ARGS[0]), (os.getpid() + 1, ARGS[1])):
        with open(os.path.join(os.environ['TKVIEW_LLVM_CHANGED'], str(pid)), 'w') as f:
            f.write(said + '\n')
    dump(ARGS[2])
elif MODE == 'autotune':
    import tempfile
    pkg = tempfile.mkdtemp(prefix='fake-triton-')
    os.makedirs(os.path.join(pkg, 'triton', 'runtime'))
    for init in ('triton/__init__.py', 'triton/runtime/__init__.py'):
        open(os.path.join(pkg, init), 'w').close()
    with open(os.path.join(pkg, 'triton', 'runtime', 'autotuner.py'), 'w') as f:
        f.write('''
class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3):
        self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, num_stages
        self.num_ctas, self.maxnreg, self.pre_hook = 1, None, None


class Autotuner:
    def __init__(self, fn, configs, times):
        self.base_fn, self.configs, self.times = fn, configs, times

    def run(self, *args, **kwargs):
        self.configs_timings = {c: t for c, t in zip(self.configs, self.times)}
        self.best_config = min(self.configs_timings, key=lambda c: self.configs_timings[c][0])
        return 'ran'
''')
    sys.path.insert(0, pkg)
    from triton.runtime import autotuner

    def mm_kernel():
        pass
    tuner = autotuner.Autotuner(mm_kernel, [
        autotuner.Config({'BLOCK_M': 128, 'BLOCK_N': 64}, num_warps=8, num_stages=3),
        autotuner.Config({'BLOCK_M': 64, 'BLOCK_N': 64}, num_warps=4, num_stages=4)],
        [[0.25, 0.24, 0.26], [0.125, 0.12, 0.13]])
    assert tuner.run() == 'ran'
    # Inductor's max-autotune: a stand-in torch._inductor.select_algorithm
    # whose feedback savers get {choice: ms} as torch 2.11's do.
    os.makedirs(os.path.join(pkg, 'torch', '_inductor'))
    for init in ('torch/__init__.py', 'torch/_inductor/__init__.py'):
        open(os.path.join(pkg, init), 'w').close()
    with open(os.path.join(pkg, 'torch', '_inductor', 'select_algorithm.py'), 'w') as f:
        f.write('''
_savers = []


def add_feedback_saver(fn):
    _savers.append(fn)


class Request:
    def __init__(self, kernel_name, num_warps, num_stages):
        self.kernel_name, self.num_warps, self.num_stages = kernel_name, num_warps, num_stages


class Choice:
    def __init__(self, name, description, bmreq=None):
        self.name, self.description, self.bmreq = name, description, bmreq


def autotune(timings, name):
    for fn in _savers:
        fn(timings, name, [], list(timings), lambda: None, {})
''')
    from torch._inductor import select_algorithm as sa
    sa.autotune({
        sa.Choice('triton_mm_0', "ACC_TYPE='tl.float32', BLOCK_M=64, EVEN_K=True, "
                  "num_stages=3, num_warps=4", sa.Request('triton_mm', 4, 3)): 0.5,
        sa.Choice('extern_mm', 'aten'): 0.25,
        sa.Choice('triton_mm_1', 'BLOCK_M=32, num_stages=2, num_warps=2',
                  sa.Request('triton_mm', 2, 2)): float('inf')}, 'mm')
    shutil.rmtree(pkg)
    dump(ARGS[0])
    if os.environ.get('TK_USER_SITE'):
        print('fake: user site ran', flush=True)
    print('fake: done', flush=True)
elif MODE in ('compiles', 'compile-one'):
    import subprocess
    import triton.knobs as knobs

    def compile_one(cap):
        """One compile as Triton 3.6 runs it: the hook asked for a cache key,
        then given the stages dict, then each stage run with the metadata
        (whose "hash" is NAME.json's)."""
        root = os.path.join(DUMPS, cap)
        [meta] = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(root, 'cache'))
                  for f in fs if f.endswith('.json') and not f.startswith('__grp__')]
        with open(meta) as f:
            metadata = {'hash': json.load(f)['hash']}
        hook = knobs.runtime.add_stages_inspection_hook
        assert hook is not None, 'tkview did not install its stage hook'
        assert hook()[0] == '', 'the hook must not change the compile hash'

        def write_fd2(path):
            with open(path, 'rb') as f:
                data = f.read()
            for i in range(0, len(data), 1 << 14):
                os.write(2, data[i:i + (1 << 14)])
                time.sleep(0)  # let the other process write in between

        def ttir(src, md):
            write_fd2(os.path.join(root, 'mlir_passes.txt'))
            return 'ttir'

        def llir(src, md):
            write_fd2(os.path.join(root, 'stderr.txt'))
            os.write(2, b'fake: a message while compiling %s\n' % cap.encode())
            # what MLIR_ENABLE_DIAGNOSTICS=warnings,remarks adds, as Triton
            # 3.6 prints it (sample_dumps/raw/diag_*): a remark and its note
            os.write(2, b'/tmp/capture/%s.py:16:15: remark: fake remark of %s\n'
                        b'/tmp/capture/%s.py:16:15: note: a note about it\n'
                     % (cap.encode(), cap.encode(), cap.encode()))
            print('ptxas info    : fake log of %s' % cap, flush=True)
            return 'llir'
        stages = {'ttir': ttir, 'llir': llir}
        hook(None, stages, None, None, None)
        module = None
        for stage in stages.values():
            module = stage(module, metadata)
        copy_tree(os.path.join(root, 'kernel_dump'), knob('TRITON_DUMP_DIR'))
        copy_tree(os.path.join(root, 'cache'), knob('TRITON_CACHE_DIR'))

    if MODE == 'compile-one':
        compile_one(ARGS[0])
    else:
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__),
                                  'compile-one', ARGS[1]])
        compile_one(ARGS[0])
        assert child.wait() == 0
        write_stderr(b'fake: a message after compiling\n')
        print('fake: done', flush=True)
elif MODE == 'waitsass':
    for cap in ARGS[1:]:
        dump(cap)
    end, n, ran = time.time() + 90, len(ARGS) - 1, False
    while time.time() < end and not ran:
        time.sleep(0.05)
        if os.path.exists(ARGS[0]):
            with open(ARGS[0]) as f:
                kinds = [l.split()[0] for l in f if l.strip()]
            ran = kinds.count('-c') >= n and kinds.count('--print-life-ranges') >= n
    print('fake: nvdisasm %s while I ran' % ('ran' if ran else 'did not run'),
          flush=True)
elif MODE == 'sample':
    src = ARGS[0]
    folder = os.path.join(knob('TRITON_DUMP_DIR'), 'SAMPLEHASH')
    os.makedirs(folder)
    for f in sorted(os.listdir(src)):
        if os.path.isfile(os.path.join(src, f)) and '.profile.' not in f:
            shutil.copyfile(os.path.join(src, f), os.path.join(folder, f))
    open(knob('MLIR_DUMP_PATH'), 'ab').close()
    print('fake: done', flush=True)
else:
    sys.exit('fake_triton: unknown mode ' + MODE)
