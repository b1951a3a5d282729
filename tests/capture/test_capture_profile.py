#!/usr/bin/env python3
"""`tkview capture --profile` without a GPU: fake_ncu.py stands in for
Nsight Compute and fake_triton.py (mode "sample") for the program, which
"compiles" the kernel of sample_dumps/matmul_profile.  The fake ncu runs
the program and later exports the sample's real Nsight Compute export
(ncu/source_sass.csv.gz), so what lands in the bundle can be checked
against the numbers read off that export (ncu/README.md): 1344
instructions, 40 471 samples.

What only a GPU can show (that real ncu accepts the options tkview gives
it, and exports what tkview reads) is docs/cost.md's command for the lead.

Usage: test_capture_profile.py TKVIEW   (TK_TEST_SAMPLES names
sample_dumps).  Prints TAP.
"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, test  # noqa: E402

TKVIEW = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SAMPLES = os.environ.get('TK_TEST_SAMPLES', os.path.join(ROOT, 'sample_dumps'))
KERNEL_DIR = os.path.join(SAMPLES, 'matmul_profile', 'matmul_pipelined-bc33df85')
MATMUL_CSV = os.path.join(SAMPLES, 'matmul_profile', 'ncu', 'source_sass.csv.gz')
ATTN_CSV = os.path.join(SAMPLES, 'attention_fwd', 'ncu', 'source_sass.csv.gz')
FAKE_TRITON = os.path.join(HERE, 'fake_triton.py')
TMP = tempfile.mkdtemp(prefix='tkview-profile-test-')
BIN = os.path.join(TMP, 'bin')
NCU = os.path.join(BIN, 'ncu')

os.makedirs(BIN)
with open(NCU, 'w') as f:
    f.write('#!/bin/sh\nexec "%s" "%s" "$@"\n'
            % (sys.executable, os.path.join(HERE, 'fake_ncu.py')))
os.chmod(NCU, 0o755)


def capture(name, *opts, csv=MATMUL_CSV, mode='ok', path=None):
    out = os.path.join(TMP, name)
    log = os.path.join(TMP, name + '.log')
    env = dict(os.environ, FAKE_NCU_CSV=csv, FAKE_NCU_MODE=mode,
               FAKE_NCU_LOG=log)
    env.pop('DISPLAY', None)
    if path is not None:
        env['PATH'] = path
    p = subprocess.run([TKVIEW, 'capture', '-o', out, '--no-progress', '--profile', *opts,
                        '--', sys.executable, FAKE_TRITON, 'sample',
                        KERNEL_DIR],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, cwd=TMP, timeout=300)
    calls = []
    if os.path.exists(log):
        with open(log) as f:
            calls = [json.loads(l) for l in f]
    return (p.returncode, p.stdout.decode(), p.stderr.decode(), out, calls)


def manifest(bundle):
    with open(os.path.join(bundle, 'manifest.json')) as f:
        return json.load(f)


def hot(bundle):
    p = subprocess.run([TKVIEW, 'hot', bundle, '--json', '--top', '3'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)['kernels'][0]


@test
def profile_lands_in_the_bundle():
    code, out, err, bundle, calls = capture('ok', '--ncu', NCU)
    assert code == 0, err
    assert 'fake: done' in out and '==PROF== Connected' in out, out
    # the program under ncu, then ncu's own export of the report
    run, export = calls
    assert run[:11] == ['--set', 'none', '--section', 'SourceCounters',
                        '--section', 'WarpStateStats', '--kernel-id', ':::1',
                        '-o', run[9], '-f'], run
    assert run[9].endswith('/run/profile'), run
    assert run[11:] == [sys.executable, FAKE_TRITON, 'sample', KERNEL_DIR], run
    assert export == ['--import', run[9] + '.ncu-rep', '--page', 'source',
                      '--csv', '--print-source', 'sass'], export
    m = manifest(bundle)
    [k] = m['kernels']
    assert k['files']['profile'] == k['folder'] + '/matmul_pipelined.profile.json'
    prof = m['capture']['profile']
    assert prof['tool'] == 'ncu' and prof['ncu'] == NCU, prof
    assert prof['sections'] == 1 and 'error' not in prof, prof
    assert prof['kernels'] == [{'name': 'matmul_pipelined',
                                'hash': k['hash'], 'instructions': 1344,
                                'file': k['files']['profile']}], prof
    assert prof['command'][0] == NCU and prof['command'][-1] == KERNEL_DIR
    # ncu/README.md: 40 471 samples over the 1344 rows
    h = hot(bundle)
    assert h['total']['samples'] == 40471 and h['metric'] == 'samples', h['total']
    assert h['lines'][0]['line'] == 54 and h['lines'][0]['exact'] == 10874
    # the same file profile import makes from that export
    with open(os.path.join(bundle, k['files']['profile']), 'rb') as f, \
            open(os.path.join(KERNEL_DIR, 'matmul_pipelined.profile.json'),
                 'rb') as g:
        assert f.read() == g.read()
    assert 'tkview: profile: 1 kernel of the bundle profiled' in err, err


@test
def ncu_found_in_path_kernel_and_extra_options():
    path = BIN + os.pathsep + os.environ.get('PATH', '')
    code, _, err, bundle, calls = capture(
        'path', '--kernel', 'matmul_pipelined',
        '--ncu-arg=--warp-sampling-interval', '--ncu-arg=0', path=path)
    assert code == 0, err
    run = calls[0]
    assert run[6:8] == ['--kernel-id', '::matmul_pipelined:1'], run
    assert run[11:13] == ['--warp-sampling-interval', '0'], run
    assert manifest(bundle)['capture']['profile']['ncu'] == NCU


@test
def no_report_still_gives_the_bundle():
    code, _, err, bundle, _ = capture('noreport', '--ncu', NCU, mode='noreport')
    assert code == 1, (code, err)
    assert 'tkview: no profile: ncu wrote no report' in err, err
    m = manifest(bundle)
    assert m['complete'] is True
    assert 'profile' not in m['kernels'][0]['files']
    assert 'no report' in m['capture']['profile']['error']
    assert 'without a profile' in err, err
    assert hot(bundle)['profile'] is None


@test
def export_failing_or_of_another_kernel():
    code, _, err, bundle, _ = capture('badexport', '--ncu', NCU, mode='badexport')
    assert code == 1 and 'could not export' in err, err
    assert 'could not export' in manifest(bundle)['capture']['profile']['error']
    # only another kernel profiled (as PyTorch's are): no profile
    code, _, err, bundle, _ = capture('other', '--ncu', NCU, csv=ATTN_CSV)
    assert code == 1, err
    prof = manifest(bundle)['capture']['profile']
    assert prof['sections'] == 1 and prof['other_kernels'] == 1, prof
    assert prof['kernels'] == [] and 'no profiled kernel is one of' in prof['error'], prof


@test
def other_programs_kernels_are_left_out():
    """A real program launches PyTorch's kernels too (torch.randn): ncu
    profiles their first launch as well, and the export has a section
    for each.  Here the attention export's section stands for one."""
    both = os.path.join(TMP, 'both.csv')
    with open(both, 'wb') as out:
        for path in (ATTN_CSV, MATMUL_CSV):
            with gzip.open(path) as f:
                out.write(f.read())
    code, _, err, bundle, _ = capture('both', '--ncu', NCU, csv=both)
    assert code == 0, err
    assert 'other kernels profiled with them are left out' in err, err
    prof = manifest(bundle)['capture']['profile']
    assert prof['sections'] == 2 and prof['other_kernels'] == 1, prof
    assert [k['name'] for k in prof['kernels']] == ['matmul_pipelined'], prof
    assert hot(bundle)['total']['samples'] == 40471


@test
def bad_options():
    nowhere = os.path.join(TMP, 'empty-bin')
    os.makedirs(nowhere, exist_ok=True)
    if not (os.path.exists('/usr/local/cuda/bin/ncu') or os.environ.get('CUDA_HOME')):
        code, _, err, bundle, _ = capture('nongu', path=nowhere)
        assert code == 3 and 'ncu (Nsight Compute) was not found' in err, err
        assert not os.path.exists(bundle)
    code, _, err, _, _ = capture('noexe', '--ncu',
                                 os.path.join(TMP, 'no-such-ncu'))
    assert code == 3 and 'not an executable' in err, err
    p = subprocess.run([TKVIEW, 'capture', '--ncu', NCU, '--', 'true'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=TMP)
    assert p.returncode == 2 and b'go with --profile' in p.stderr, p.stderr
    p = subprocess.run([TKVIEW, 'capture', '--profile', '--mlir', 'x.mlir'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=TMP)
    assert p.returncode == 2 and b'not with --mlir' in p.stderr, p.stderr


rc = finish()
shutil.rmtree(TMP, ignore_errors=True)
sys.exit(rc)
