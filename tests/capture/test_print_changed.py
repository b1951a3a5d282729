#!/usr/bin/env python3
"""The pass index and timeline on LLVM's -print-changed output, the dumps a
capture asks for by default where its hook can rename print-after-all
(docs/capture.md, "LLVM's own options").  sample_dumps/raw/
vector_add_sum_changed.tar.xz holds compiler/examples/triton/vector_add_sum.py
captured twice on the H200 (Triton 3.6.0), with tkview's hook, one compile of
add_sum_kernel each: changed/ with -print-changed (print-after-all renamed)
for the optimizer and the code generator alike (what a capture gets where the
per-stage setters are missing: by default the code generator keeps
print-after-all, whose dumps are all/'s), all/ with Triton's print-after-all;
each has kernel_dump/ and compiles/.

Expected values were read off the two files by hand (grep -c):
  changed: 1 "*** IR Dump At Start ***"; 110 new pass manager headers
  "*** IR Dump After NAME on UNIT ***" (printed or "omitted because no
  change"); 62 machine headers "*** IR Dump After Description (arg) on
  add_sum_kernel ***" (or without "(arg)": "NVPTX Replace Image Handles"),
  7 of them printed (isel, peephole-opt, livevars, phi-node-elimination,
  twoaddressinstruction, liveintervals, register-coalescer); 26
  "*** IR Pass ... ignored ***" banners (the pass manager's own wrappers);
  no header of the code generator's IR passes (they print nothing).
  all: 110 "; *** IR Dump After" headers, 44 legacy "*** IR Dump After
  Description (arg) ***" headers (the code generator's IR passes), 37
  "# *** IR Dump After" machine headers.
  The 110 optimizer passes are the same passes in the same order in both.
Prints TAP.

Usage: test_print_changed.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps/)
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
TAR = os.path.join(os.environ['TK_TEST_SAMPLES'], 'raw', 'vector_add_sum_changed.tar.xz')
TMP = tempfile.mkdtemp(prefix='print-changed-')
_dirs = []
_passes = {}


def folder(mode):
    if not _dirs:
        if not os.path.exists(TAR) or not shutil.which('tar'):
            raise Skip('no %s or no tar' % TAR)
        subprocess.run(['tar', 'xJf', TAR, '-C', TMP], check=True)
        _dirs.append(os.path.join(TMP, 'vector_add_sum_changed'))
    return os.path.join(_dirs[0], mode)


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def passes(path):
    if path not in _passes:
        rc, out, err = run('passes', '--json', path)
        assert rc == 0, err
        ks = json.loads(out)['kernels']
        assert len(ks) == 1 and ks[0]['name'] == 'add_sum_kernel', [k['name'] for k in ks]
        _passes[path] = ks[0]['passes']
    return _passes[path]


def level(ps, name):
    return [p for p in ps if p['level'] == name]


def diff_text(path, a, b):
    """`tkview diff --pass A --to B` without its two file lines (which name
    the dump file and line)."""
    rc, out, err = run('diff', path, '--kernel', 'add_sum_kernel', '--pass', str(a),
                       '--to', str(b), '--color', 'never')
    return rc, ''.join(l for l in out.splitlines(True) if not l.startswith(('---', '+++')))


@test
def the_optimizer_passes_are_print_after_all_s():
    ch, al = level(passes(folder('changed')), 'llvm-ir'), level(passes(folder('all')), 'llvm-ir')
    assert len(ch) == 110 and len(al) == 110, (len(ch), len(al))
    assert [(p['pass'], p['scope']) for p in ch] == [(p['pass'], p['scope']) for p in al]
    # the first: "*** IR Dump After Annotation2MetadataPass on [module] omitted
    # because no change ***" right after "IR Dump At Start" (a text, not a pass)
    assert ch[0]['pass'] == 'Annotation2MetadataPass' and ch[0]['effect'] == 'unchanged', ch[0]
    # "*** IR Dump After InferFunctionAttrsPass on [module] ***" has a body
    infer = [p for p in ch if p['pass'] == 'InferFunctionAttrsPass']
    assert len(infer) == 1 and infer[0]['effect'] == 'changed', infer


@test
def ignored_banners_are_no_passes():
    names = {p['pass'] for p in passes(folder('changed'))}
    for wrapper in ('PassManager<Function>', 'ModuleToFunctionPassAdaptor',
                    'FunctionToLoopPassAdaptor', 'CGSCCToFunctionPassAdaptor'):
        assert wrapper not in names, wrapper


@test
def machine_headers_without_hash_are_machine_code():
    ms = level(passes(folder('changed')), 'machine')
    assert len(ms) == 62, len(ms)
    assert all(p['kind'] == 'machine' for p in ms), [p['pass'] for p in ms if p['kind'] != 'machine']
    # a description without "(arg)" is machine code too
    assert ms[1]['pass'] == 'NVPTX Replace Image Handles', ms[1]
    assert ms[0]['arg'] == 'nvptx-isel' and ms[0]['effect'] == 'unknown', ms[0]
    changed = [p['arg'] for p in ms if p['effect'] == 'changed']
    assert changed == ['peephole-opt', 'livevars', 'phi-node-elimination',
                       'twoaddressinstruction', 'liveintervals', 'register-coalescer'], changed
    assert len(level(passes(folder('all')), 'machine')) == 37


@test
def the_code_generator_s_ir_passes_are_not_printed():
    assert level(passes(folder('changed')), 'codegen-ir') == []
    assert len(level(passes(folder('all')), 'codegen-ir')) == 44


@test
def the_optimizer_s_whole_text_is_the_same():
    # From the second optimizer pass (the first has no text before it under
    # print-after-all) to the last: the same diff, line for line, each way.
    ch, al = level(passes(folder('changed')), 'llvm-ir'), level(passes(folder('all')), 'llvm-ir')
    rc1, d1 = diff_text(folder('changed'), ch[1]['index'], ch[-1]['index'])
    rc2, d2 = diff_text(folder('all'), al[1]['index'], al[-1]['index'])
    assert rc1 == 0 and rc2 == 0, (rc1, rc2)
    assert d1.startswith('@@ ') and d1 == d2, (d1[:300], d2[:300])


@test
def an_omitted_pass_reads_its_unit_as_it_stands():
    # "*** IR Dump After SpeculativeExecutionPass on add_sum_kernel omitted
    # because no change ***": its diff says no change, as the same pass's
    # print-after-all dumps do; and a range starting at it is the range
    # print-after-all gives.
    for mode in ('changed', 'all'):
        ps = level(passes(folder(mode)), 'llvm-ir')
        spec = [p for p in ps if p['pass'] == 'SpeculativeExecutionPass'][0]
        assert spec['effect'] == 'unchanged', spec
        rc, out, err = run('diff', folder(mode), '--kernel', 'add_sum_kernel', '--pass',
                           str(spec['index']), '--color', 'never')
        assert out == '' and 'no change' in err, (mode, rc, out[:200], err[-300:])
    ch, al = level(passes(folder('changed')), 'llvm-ir'), level(passes(folder('all')), 'llvm-ir')
    i = [p['pass'] for p in ch].index('SpeculativeExecutionPass')
    assert diff_text(folder('changed'), ch[i]['index'], ch[i + 20]['index']) == \
        diff_text(folder('all'), al[i]['index'], al[i + 20]['index'])


@test
def a_bundle_keeps_the_same_passes():
    out_dir = os.path.join(TMP, 'changed.tkview')
    rc, out, err = run('bundle', folder('changed'), '-o', out_dir)
    assert rc == 0, err
    strip = lambda ps: [(p['pass'], p['level'], p['effect']) for p in ps]  # noqa: E731
    assert strip(passes(out_dir)) == strip(passes(folder('changed')))
    rc, out, err = run('passes', out_dir)
    assert 'has no body' not in err, err


if __name__ == '__main__':
    rc = finish()
    shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(rc)
