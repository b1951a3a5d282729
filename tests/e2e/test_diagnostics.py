#!/usr/bin/env python3
"""tkview diagnostics on the raw GPU captures of sample_dumps/raw (made on an
H200, Triton 3.6; sample_dumps/raw/README.md): each compiler message once,
under its kernel, on the line the text names.

Expected values were read by hand from the captures:
  diag_remarks/stderr.txt lines 1-8: the remark "MMA version 3 acceleration
    not applied due to unsupported shapes or data types." at
    diag_remarks.py:28:18 (`c = tl.dot(a, b)` in small_dot_kernel), printed
    twice, each time with "note: Target compute capability (90) supports MMA
    v3."; small_dot_kernel.ttgir line 46 is the `tt.dot` whose loc is #loc13
    = 28:18.
  diag_remarks/stdout.txt: spill_rows_kernel "1920 bytes stack frame, 2280
    bytes spill stores, 3120 bytes spill loads", "Used 64 registers";
    serialized_dot_kernel "(C7511) Potential Performance Loss:
    wgmma.mma_async instructions are serialized ..." and "512 bytes stack
    frame, 1192 bytes spill stores, 936 bytes spill loads"; small_dot_kernel
    "Used 42 registers", no spill.
  diag_ptxas_fatal/stdout.txt (and the PTXASError at the end of stderr.txt):
    "(C7602) Insufficient registers (128) to compile instruction at line 630
    in function regcap_matmul_kernel"; in kernel_dump/*/regcap_matmul_kernel.ptx
    line 630 is `wgmma.mma_async...m64n256k16`, and the last .loc above it
    (line 620) is `.loc 1 28 27` (diag_ptxas_fatal.py:28:27, `acc =
    tl.dot(a, b, acc)`).  No cubin.
  diag_type_error/stderr.txt: "CompilationError: at 5:8:" under `def
    bad_dot_kernel(` which is line 13 of diag_type_error.py: line 13 + 5 - 1
    = 17 (`z = tl.dot(x, y)`), column 8 from 0 = 9 from 1; "input and other
    must have equal ranks >= 2".  No IR at all.
  diag_ws_store/stderr.txt line 481: "diag_ws_store.py:41:41: error:
    'tt.descriptor_store' op tensor descriptor block and tensor types must
    match" (`c_desc.store(...)`), line 532 "Pipeline failed while executing
    [`NVGPUWarpSpecialization` ...", a traceback through make_ttgir.
  The pass steps (tk_diag_pass.h; numbers as `tkview passes` counts, from
  0): diag_remarks/mlir_passes.txt's first 15 "IR Dump Before" headers are
    small_dot_kernel's (line 7 is its `tt.func public @small_dot_kernel`),
    the 16th, line 1371, is "IR Dump Before TritonGPUAccelerateMatmul", its
    only one for that kernel: step 15.  diag_ws_store/mlir_passes.txt (one
    kernel) has 30 "IR Dump Before" headers before line 3330, "IR Dump
    Before NVGPUWarpSpecialization", the last (3431 is its "IR Dump After
    NVGPUWarpSpecialization Failed"): step 30.
  diag_ws_store/stderr.txt lines 1, 44, 87, 146: "// -----// WarpSpec
    internal IR Dump After: doTaskPartition" (then doTaskIdPropagate,
    doDataPartition, doCodePartition), printed inside that pass (the
    failing NVGPUWarpSpecialization is Triton's only pass printing
    "WarpSpec" dumps): its sub-steps 30.0-30.3.  Lines 484-508 are the
    `module {...}` MLIR printed with the error of line 481, no pass dump.

Only the files needed are unpacked, into this test's own temporary folder
(stderr.txt of the two big captures: its first 200 KB, or its last 64 KB).

Usage: test_diagnostics.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps)
Prints TAP.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, test  # noqa: E402

TKVIEW = sys.argv[1]
RAW = os.path.join(os.environ['TK_TEST_SAMPLES'], 'raw')
TMP = tempfile.mkdtemp(prefix='diagnostics-')


def unpack(name, big=None, mlir=False, into=None):
    """Unpacks NAME's capture without mlir_passes.txt (MLIR: with it) into
    TMP (or TMP/INTO); BIG: 'head' or 'tail' keeps that part of stderr.txt
    only, 'none' none of it."""
    archive = os.path.join(RAW, name + '.tar.xz')
    top = os.path.join(TMP, into) if into else TMP
    os.makedirs(top, exist_ok=True)
    cmd = ['tar', '-xJf', archive, '-C', top]
    if big:
        cmd += ['--exclude', name + '/stderr.txt']
        if not mlir:
            cmd += ['--exclude', name + '/mlir_passes.txt']
    subprocess.run(cmd, check=True)
    if big in ('head', 'tail'):
        cut = ['head', '-c', '200000'] if big == 'head' else ['tail', '-c', '65536']
        with open(os.path.join(top, name, 'stderr.txt'), 'wb') as out:
            tar = subprocess.Popen(['tar', '-xJOf', archive, name + '/stderr.txt'],
                                   stdout=subprocess.PIPE)
            subprocess.run(cut, stdin=tar.stdout, stdout=out, check=True)
            tar.stdout.close()
            tar.wait()
    return os.path.join(top, name)


def diagnostics(folder, *extra):
    p = subprocess.run([TKVIEW, 'diagnostics', folder, '--json', *extra],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stderr.decode())
    return json.loads(p.stdout)


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def kernel(data, name):
    found = [k for k in data['kernels'] if k['name'] == name]
    assert len(found) == 1, (name, [k['name'] for k in data['kernels']])
    return found[0]


REMARKS = unpack('diag_remarks', 'head')
AUTOTUNE = unpack('autotune_matmul', 'none')
FP8 = unpack('fp8_matmul_three', 'none')
FATAL = unpack('diag_ptxas_fatal', 'tail')
TYPE_ERROR = unpack('diag_type_error')
WS_STORE = unpack('diag_ws_store')
REMARKS_PASSES = unpack('diag_remarks', 'head', mlir=True, into='with-passes')


@test
def remark_on_its_line_once_with_its_note():
    k = kernel(diagnostics(REMARKS), 'small_dot_kernel')
    assert not k['failed']
    mma = [d for d in k['diagnostics'] if 'MMA version 3' in d['message']]
    assert len(mma) == 1, k['diagnostics']
    d = mma[0]
    assert (d['origin'], d['severity'], d['code']) == ('mlir', 'remark', None), d
    assert d['file'].endswith('/diag_remarks.py') and (d['line'], d['column']) == (28, 18), d
    assert d['notes'] == ['Target compute capability (90) supports MMA v3.'], d
    assert (d['stage'], d['ir_line']) == ('ttgir', 46), d
    assert d['pass'] == 'TritonGPUAccelerateMatmul', d
    assert d['stack'] == [{'file': d['file'], 'line': 28, 'column': 18}], d


@test
def ptxas_spills_and_c7511_under_their_kernels():
    data = diagnostics(REMARKS)
    spill = kernel(data, 'spill_rows_kernel')['diagnostics']
    assert [d['message'] for d in spill] == [
        '1920 bytes stack frame, 2280 bytes spill stores, 3120 bytes spill loads'], spill
    assert spill[0]['origin'] == 'ptxas' and spill[0]['severity'] == 'warning'
    ser = kernel(data, 'serialized_dot_kernel')['diagnostics']
    codes = sorted((d['code'] or '', d['message']) for d in ser)
    assert len(codes) == 2, ser
    assert codes[0][1] == '512 bytes stack frame, 1192 bytes spill stores, 936 bytes spill loads'
    assert codes[1][0] == 'C7511' and 'wgmma.mma_async instructions are serialized' in codes[1][1]
    assert kernel(data, 'small_dot_kernel')['diagnostics'][0]['origin'] == 'mlir'
    assert len(kernel(data, 'small_dot_kernel')['diagnostics']) == 1


@test
def ptxas_summary_beside_the_metadata_in_text():
    p = subprocess.run([TKVIEW, 'diagnostics', REMARKS, '--kernel', 'spill_rows_kernel'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    out = p.stdout.decode()
    assert p.returncode == 0, p.stderr
    assert ('ptxas: 64 registers, 1 barriers, 1920 bytes stack frame, 2280 bytes '
            'spill stores, 3120 bytes spill loads') in out, out
    assert 'small_dot_kernel' not in out


@test
def c7602_on_the_line_of_the_ptx_loc_listed_once():
    data = diagnostics(FATAL)
    k = kernel(data, 'regcap_matmul_kernel')
    assert k['failed'] and k['hash'], k
    assert len(k['diagnostics']) == 1, k['diagnostics']  # stdout and stderr: once
    d = k['diagnostics'][0]
    assert (d['origin'], d['severity'], d['code']) == ('ptxas', 'error', 'C7602'), d
    assert (d['stage'], d['ir_line']) == ('ptx', 630), d
    assert d['file'].endswith('/diag_ptxas_fatal.py') and (d['line'], d['column']) == (28, 27), d
    assert d['notes'] == ['Ptx assembly aborted due to errors'], d
    assert 'register target of 154 or higher' in d['message']


@test
def compilation_error_on_its_line_no_ir():
    data = diagnostics(TYPE_ERROR)
    assert len(data['kernels']) == 1, data
    k = data['kernels'][0]
    assert (k['name'], k['hash'], k['failed']) == ('bad_dot_kernel', None, True), k
    assert len(k['diagnostics']) == 1
    d = k['diagnostics'][0]
    assert (d['origin'], d['severity']) == ('frontend', 'error'), d
    assert d['file'].endswith('/diag_type_error.py') and (d['line'], d['column']) == (17, 9), d
    assert d['message'] == 'input and other must have equal ranks >= 2', d
    assert (d['stage'], d['ir_line'], d['pass']) == (None, None, None), d


@test
def one_saved_stream_is_read_too():
    # stderr.txt given alone: its folder's src/ still gives the def line
    code, out, err = run('diagnostics', os.path.join(TYPE_ERROR, 'stderr.txt'), '--json')
    assert code == 0, (code, err)
    [k] = json.loads(out)['kernels']
    assert k['name'] == 'bad_dot_kernel' and k['failed'], k
    assert [(d['line'], d['column']) for d in k['diagnostics']] == [(17, 9)], k


@test
def failed_pass_named_with_its_error_on_line_41():
    data = diagnostics(WS_STORE)
    k = kernel(data, 'persistent_matmul_kernel')
    assert k['failed'], k
    errs = [d for d in k['diagnostics'] if 'descriptor block' in d['message']]
    assert len(errs) == 1, k['diagnostics']
    d = errs[0]
    assert (d['origin'], d['severity'], d['line'], d['column']) == ('mlir', 'error', 41, 41), d
    assert d['pass'] == 'NVGPUWarpSpecialization' and d['stage'] == 'ttgir', d
    fail = [d for d in k['diagnostics'] if d['message'].startswith('Failures have been detected')]
    assert len(fail) == 1 and fail[0]['notes'][0].startswith(
        'Pipeline failed while executing [`NVGPUWarpSpecialization`'), fail


@test
def remark_opens_the_only_run_of_its_pass():
    k = kernel(diagnostics(REMARKS_PASSES), 'small_dot_kernel')
    [d] = [d for d in k['diagnostics'] if 'MMA version 3' in d['message']]
    assert d['pass'] == 'TritonGPUAccelerateMatmul', d
    assert (d['pass_step'], d['pass_step_how']) == (15, 'only-run'), d
    code, out, err = run('diagnostics', REMARKS_PASSES, '--kernel', 'small_dot_kernel')
    assert code == 0, err
    assert ('pass: TritonGPUAccelerateMatmul (the pass that emits this message), '
            'step 15 of `tkview passes` (its only run)') in out, out


@test
def no_mlir_dumps_no_step():
    """Without mlir_passes.txt the timeline has only LLVM's passes: the
    remark's pass is named, its step is not guessed."""
    k = kernel(diagnostics(REMARKS), 'small_dot_kernel')
    [d] = [d for d in k['diagnostics'] if 'MMA version 3' in d['message']]
    assert d['pass_step'] is None and d['pass_step_how'] in ('not-run', None), d


@test
def failed_pipeline_opens_the_run_that_failed():
    k = kernel(diagnostics(WS_STORE), 'persistent_matmul_kernel')
    named = [d for d in k['diagnostics'] if d['pass'] == 'NVGPUWarpSpecialization']
    assert len(named) >= 2, k['diagnostics']  # the error on line 41, the failure
    for d in named:
        assert (d['pass_step'], d['pass_step_how']) == (30, 'failed-run'), d
    # The report's list links the same step (data written by C).
    out = os.path.join(TMP, 'report-ws')
    code, _, err = run('--html', out, WS_STORE, '--quiet')
    assert code == 0, err
    with open(os.path.join(out, 'data', 'k001', 'diag.js'), encoding='utf-8') as f:
        js = f.read()
    assert '"pass":"NVGPUWarpSpecialization","pass_step":30' in js, js
    # ... in the words `tkview diagnostics` prints
    assert ('"pass_says":"step 30 of `tkview passes` (run 1 of 1: the pipeline '
            'failed in it)"') in js, js
    code, out, err = run('diagnostics', WS_STORE)
    assert 'step 30 of `tkview passes` (run 1 of 1: the pipeline failed in it)' in out, out


@test
def warp_spec_dumps_are_substeps_of_their_pass():
    code, out, err = run('passes', WS_STORE, '--json')
    assert code == 0, err
    steps = json.loads(out)['kernels'][0]['passes']
    ws = [p for p in steps if p['pass'] == 'NVGPUWarpSpecialization']
    assert len(ws) == 1 and ws[0]['index'] == 30 and ws[0]['line'] == 3330, ws
    subs = [(s['arg'], s['line']) for s in ws[0]['substeps']]
    assert subs == [('doTaskPartition', 1), ('doTaskIdPropagate', 44),
                    ('doDataPartition', 87), ('doCodePartition', 146)], subs
    assert not [p for p in steps if p['pass'] in ('SoftwarePipeliner', 'WarpSpec')], steps
    # The module printed with the error is no torn dump.
    assert 'outside any dump' not in err, err


@test
def info_counts_per_kernel_and_failed_compiles():
    code, out, err = run('info', FATAL, '--json')
    assert code == 0, err
    k = json.loads(out)['kernels'][0]
    assert k['name'] == 'regcap_matmul_kernel'
    assert k['diagnostics'] == {'failed': True, 'errors': 1, 'warnings': 0,
                                'remarks': 0, 'ptxas': None}, k['diagnostics']
    code, out, err = run('info', REMARKS, '--json')
    data = json.loads(out)
    d = {k['name']: k['diagnostics'] for k in data['kernels']}
    assert d['serialized_dot_kernel']['warnings'] == 2, d
    assert d['small_dot_kernel']['remarks'] == 1 and not d['small_dot_kernel']['failed'], d
    assert d['spill_rows_kernel']['ptxas']['registers'] == 64, d
    assert d['spill_rows_kernel']['ptxas']['spill_loads'] == 3120, d
    assert data['failed_compiles'] == []
    # No IR at all: nothing loads (exit 3), yet the failed compile is named.
    code, out, err = run('info', TYPE_ERROR)
    assert code == 3, (code, err)
    assert 'bad_dot_kernel  FAILED to compile: diag_type_error.py:17: input and other' in out, out


@test
def bind_source_shows_the_messages_on_the_line():
    code, out, err = run('bind', FATAL, '--source', 'diag_ptxas_fatal.py:28', '--json')
    assert code == 0, err
    ks = json.loads(out)['kernels']
    assert [d['code'] for d in ks[0]['diagnostics']] == ['C7602'], ks
    code, out, err = run('bind', FATAL, '--source', 'diag_ptxas_fatal.py:27', '--json')
    assert all(k['diagnostics'] == [] for k in json.loads(out)['kernels']), out
    code, out, err = run('bind', REMARKS, '--source', 'diag_remarks.py:28')
    assert code == 0, err
    assert 'compiler messages on this line:' in out and 'remark mlir diag_remarks.py:28:18' in out, out


@test
def ptxas_summaries_go_to_the_compile_with_those_registers_or_nowhere():
    """autotune_matmul/stdout.txt: five blocks of one function name, "Used
    224", "124", "127", "96", "203 registers"; each goes to the config whose
    cubin has that many.  fp8_matmul_three/stdout.txt: three blocks of
    fp8_matmul_kernel, each "Used 168 registers", as all three cubins:
    which block is which compile is unknown, so none gets one."""
    code, out, err = run('info', AUTOTUNE, '--json')
    assert code == 0, err
    ks = json.loads(out)['kernels']
    assert len(ks) == 5
    got = sorted(k['diagnostics']['ptxas']['registers'] for k in ks)
    assert got == [96, 124, 127, 203, 224], got
    for k in ks:
        assert k['diagnostics']['ptxas']['registers'] == k['metadata']['registers'], k
    code, out, err = run('info', FP8, '--json')
    ks = json.loads(out)['kernels']
    assert len(ks) == 3 and all(k['diagnostics']['ptxas'] is None for k in ks), ks
    code, out, err = run('diagnostics', FP8, '--json')
    assert code == 1, (code, err)  # ptxas said nothing but its summaries
    data = json.loads(out)
    named_only = [k for k in data['kernels'] if k['hash'] is None]
    assert [k['name'] for k in named_only] == ['fp8_matmul_kernel'], data


@test
def report_index_pins_the_failed_compile_to_its_error():
    out = os.path.join(TMP, 'report-fatal')
    code, _, err = run('--html', out, FATAL, '--quiet', '--no-passes')
    assert code == 0, err
    with open(os.path.join(out, 'index.html'), encoding='utf-8') as f:
        html = f.read()
    assert ('<span class="dg-failed" title="diag_ptxas_fatal.py:28: Insufficient '
            'registers (128) to compile instruction at line 630') in html, html[:2000]
    with open(os.path.join(out, 'data', 'k001', 'diag.js'), encoding='utf-8') as f:
        js = f.read()
    assert '"code":"C7602"' in js and '"ir_line":630' in js and '"line":28' in js, js


@test
def unknown_kernel_is_refused():
    p = subprocess.run([TKVIEW, 'diagnostics', WS_STORE, '--kernel', 'nope'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert p.returncode == 2 and b'nope' in p.stderr, p


sys.exit(finish())
