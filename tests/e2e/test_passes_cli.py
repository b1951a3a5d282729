#!/usr/bin/env python3
"""End-to-end tests of `tkview passes`, `tkview diff` and `tkview history` on
the real shared dumps: exit codes, JSON shape, a known diff hunk, colours and
NO_COLOR, the diff of two autotune configurations.

Expected values were read off the dump files by hand (grep -n, sed, diff);
the comments quote the lines.  Prints TAP.

Usage: test_passes_cli.py TKVIEW   (TK_TEST_DUMPS names the unpacked dumps)
"""
import json
import os
import re
import pty
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import Skip, finish, test  # noqa: E402

TKVIEW = sys.argv[1]
DUMPS = os.environ['TK_TEST_DUMPS']
VA = os.path.join(DUMPS, 'vector_add')
AT = os.path.join(DUMPS, 'autotuned_matmul')


def run(*args, env=None):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300, env=env)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def run_json(*args, rc=0):
    code, out, err = run(*args, '--json')
    assert code == rc, (code, err)
    return json.loads(out)


def run_tty(*args, env):
    """Runs tkview with its stdout on a pseudo-terminal; returns (rc, out)."""
    try:
        pid, fd = pty.fork()
    except OSError as e:
        raise Skip('no pseudo-terminal here (%s)' % e)
    if pid == 0:
        os.execve(TKVIEW, [TKVIEW, *args], env)
    chunks = []
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b''.join(chunks).decode('utf-8', 'replace')


# ---- tkview passes ---------------------------------------------------------

@test
def passes_vector_add_json():
    r = run_json('passes', VA)
    assert len(r['kernels']) == 1
    k = r['kernels'][0]
    assert k['name'] == 'add_kernel' and k['hash'].startswith('faf6139b'), k['hash']
    # 73 "IR Dump Before" headers in mlir_passes.txt; 193 dumps in stderr.txt,
    # 2 of them SoftwarePipeliner's (sub-steps, not passes).
    assert k['summary']['passes'] == 73 + 191, k['summary']
    assert [os.path.basename(f) for f in k['files']] == ['mlir_passes.txt', 'stderr.txt']
    p = k['passes']
    assert [x['index'] for x in p] == list(range(264))
    keys = {'index', 'level', 'level_after', 'starts_level', 'pass', 'arg', 'scope', 'scope_kind', 'scope_name', 'kind',
            'when', 'file', 'line', 'effect', 'reason', 'added', 'removed', 'changes', 'flags',
            'before', 'after', 'substeps', 'note'}
    assert set(p[0]) == keys, set(p[0]) ^ keys
    # mlir_passes.txt:1178 "IR Dump Before TritonGPUCoalesce (tritongpu-coalesce)":
    # against the next dump (1251) it adds #blocked1 and 12 ops on it, and
    # removes two tt.load and a tt.store (counted by hand, locations stripped).
    c = p[14]
    assert (c['pass'], c['arg'], c['level'], c['line']) == \
        ('TritonGPUCoalesce', 'tritongpu-coalesce', 'ttgir', 1178), c
    assert c['file'].endswith('/mlir_passes.txt')
    assert (c['effect'], c['added'], c['removed'], c['reason']) == ('changed', 13, 3, None)
    assert c['before'] == {'kind': 'dump', 'text': 'mlir_passes.txt:1178'}
    assert c['after'] == {'kind': 'dump', 'text': 'mlir_passes.txt:1251'}
    # Canonicalizer at 674 changes nothing (674 vs 746 diff to nothing
    # once " loc(...)" and #loc lines go).
    assert (p[7]['line'], p[7]['effect'], p[7]['added'], p[7]['removed']) == \
        (674, 'unchanged', 0, 0)
    # The last MLIR pass (LLVMDIScope, 7585) has no dump after it.
    assert (p[72]['pass'], p[72]['effect'], p[72]['reason']) == \
        ('LLVMDIScope', 'unknown', 'no dump after it')
    # stderr.txt:70, the first LLVM IR dump: nothing comparable before it.
    assert (p[73]['pass'], p[73]['line'], p[73]['reason']) == \
        ('Annotation2MetadataPass', 70, 'nothing comparable before it')
    assert p[73]['level'] == 'llvm-ir' and p[73]['when'] == 'after'
    # SoftwarePipeliner internal dumps (stderr.txt:1, 35) under
    # TritonGPUPipeline (mlir_passes.txt:2610).
    pipe = p[33]
    assert (pipe['pass'], pipe['line']) == ('TritonGPUPipeline', 2610)
    assert [(s['arg'], s['line']) for s in pipe['substeps']] == \
        [('LowerLoops', 1), ('ExpandLoops', 35)]
    assert sum(len(x['substeps']) for x in p) == 2
    # A function pass: stderr.txt:1029 against add_kernel of 790.
    f = next(x for x in p if x['line'] == 1029 and x['file'].endswith('stderr.txt'))
    assert f['scope_kind'] == 'function' and f['scope_name'] == 'add_kernel'
    assert f['before'] == {'kind': 'functions', 'text': 'stderr.txt:790 (add_kernel)'}, f
    assert sum(1 for x in p if x['level'] == 'machine') == 37
    # Levels (tk_timeline_starts_level()): ConvertTritonToTritonGPU
    # (mlir_passes.txt:1106) reads TTIR and its dump after (1178, Coalesce)
    # is TTGIR; ConvertTritonGPUToLLVM (4756) reads TTGIR (`#blocked = #ttg.blocked`
    # at 4757) and the dump after it (4830) is the LLVM dialect.  Each is a
    # step of its own: a level's run ends before it and starts after it.
    conv = [(x['index'], x['pass'], x['level'], x['level_after']) for x in p
            if x['level'] != x['level_after']]
    assert conv == [(13, 'ConvertTritonToTritonGPU', 'ttir', 'ttgir'),
                    (62, 'ConvertTritonGPUToLLVM', 'ttgir', 'llvm-dialect')], conv
    assert p[13]['line'] == 1106 and p[62]['line'] == 4756
    starts = [x['index'] for x in p if x['starts_level']]
    # ttir 0-12, 13, ttgir 14-61, 62, llvm-dialect 63-72, llvm-ir from 73,
    # codegen-ir from 183, machine from 227 (as the levels change in `level`)
    firsts = [x['index'] for i, x in enumerate(p) if i and x['level'] != p[i - 1]['level']]
    assert starts == sorted({0, 13, 14, 62, 63} | set(firsts)), (starts, firsts)


@test
def passes_text_and_changed_only():
    code, out, _ = run('passes', VA)
    assert code == 0
    assert 'TritonGPUCoalesce (tritongpu-coalesce)' in out
    row = next(l for l in out.splitlines() if 'mlir_passes.txt:1178' in l)
    assert row.split()[:4] == ['14', 'ttgir', '+13', '-3'], row
    row = next(l for l in out.splitlines() if 'mlir_passes.txt:674' in l)
    assert 'unchanged' in row
    assert 'no dump after it' in out
    code, out2, _ = run('passes', VA, '--changed-only')
    assert code == 0
    assert 'mlir_passes.txt:674' not in out2 and 'mlir_passes.txt:1178' in out2
    r = run_json('passes', VA, '--changed-only')
    kept = r['kernels'][0]['passes']
    # Unchanged passes are left out, unless they hold sub-steps that are not.
    # TritonGPUPipeline (33) is unchanged, and so are its sub-steps: LowerLoops
    # (stderr.txt:1) is the Before dump's IR printed without aliases (vector
    # add has no loop to pipeline), ExpandLoops the same text again.
    assert all(x['effect'] != 'unchanged' or x['substeps'] for x in kept)
    full = run_json('passes', VA)['kernels'][0]
    assert len(kept) == full['summary']['changed'] + full['summary']['unknown']
    p33 = full['passes'][33]
    assert p33['pass'] == 'TritonGPUPipeline' and p33['effect'] == 'unchanged', p33
    lower = p33['substeps'][0]
    assert lower['arg'] == 'LowerLoops' and lower['effect'] == 'unchanged', lower
    assert 'aliases-written-out' in lower['flags'] and 'without attribute aliases' in lower['note'], lower


@test
def passes_one_timeline_per_compile():
    # compiled_block: 16 kernels (9 names, 7 compiled twice); autotuned_matmul:
    # three configurations of mm_kernel, 71 MLIR + 207 LLVM passes each.
    r = run_json('passes', os.path.join(DUMPS, 'compiled_block'))
    assert len(r['kernels']) == 16
    assert len({k['hash'] for k in r['kernels']}) == 16
    r = run_json('passes', AT)
    assert [k['summary']['passes'] for k in r['kernels']] == [278, 278, 278]
    one = run_json('passes', AT, '--kernel', 'mm_kernel:4485')
    assert len(one['kernels']) == 1 and one['kernels'][0]['hash'].startswith('448532f3')


@test
def passes_exit_codes():
    assert run('passes', '/nonexistent/tkview-passes')[0] == 3
    assert run('passes')[0] == 2
    assert run('passes', VA, '--algorithm', 'patience')[0] == 2
    assert run('passes', AT, '--kernel', 'nope')[0] == 2
    # Loose stage files without pass dumps: nothing to show.
    with tempfile.TemporaryDirectory() as d:
        ttir = [os.path.join(r, f) for r, _, fs in os.walk(os.path.join(VA, 'kernel_dump'))
                for f in fs if f.endswith('.ttir')][0]
        shutil.copy(ttir, d)
        code, _, err = run('passes', d)
        assert code == 1, (code, err)


@test
def passes_myers_agrees_on_coalesce():
    r = run_json('passes', VA, '--algorithm', 'myers')
    c = r['kernels'][0]['passes'][14]
    assert (c['added'], c['removed']) == (13, 3)


@test
def passes_on_a_dump_file_alone():
    # The MLIR dump file given as PATH: its sequence is the kernel.
    r = run_json('passes', os.path.join(VA, 'mlir_passes.txt'))
    assert len(r['kernels']) == 1
    k = r['kernels'][0]
    assert k['name'] == 'add_kernel' and k['summary']['passes'] == 73
    assert (k['passes'][14]['added'], k['passes'][14]['removed']) == (13, 3)


def pass_folder(d):
    """D holds vector_add's mlir_passes.txt and stderr.txt, nothing else."""
    for f in ('mlir_passes.txt', 'stderr.txt'):
        shutil.copy(os.path.join(VA, f), d)


def entries(k):
    return [(x['index'], x['level'], x['pass'], x['scope'], x['effect'], x['added'],
             x['removed'], len(x['substeps'])) for x in k['passes']]


@test
def passes_on_a_folder_of_dump_files():
    with tempfile.TemporaryDirectory() as d:
        pass_folder(d)
        r = run_json('passes', d)
        assert len(r['kernels']) == 1
        k = r['kernels'][0]
        # 73 MLIR headers, 193 LLVM ones less 2 SoftwarePipeliner sub-steps:
        # one kernel, MLIR then LLVM, as the capture folder shows it.
        assert k['name'] == 'add_kernel' and k['summary']['passes'] == 73 + 191
        assert [os.path.basename(f) for f in k['files']] == ['mlir_passes.txt', 'stderr.txt']
        va = run_json('passes', VA)['kernels'][0]
        assert entries(k) == entries(va)
        assert k['summary'] == va['summary'], (k['summary'], va['summary'])
        code, out, err = run('info', d)
        assert code == 0, err
        assert 'pass dump files, 1 kernel' in out and 'no final stages were found' in out
        j = run_json('info', d)
        assert all(j['kernels'][0]['stages'][s] is None for s in j['kernels'][0]['stages'])
        # Pass 14 (mlir_passes.txt:1178, TritonGPUCoalesce): +13 -3 as above.
        code, out, err = run('diff', d, '--kernel', 'add_kernel', '--pass', '14', '--color=never')
        assert code == 0, err
        assert out.startswith('--- add_kernel: mlir_passes.txt:1178'), out[:200]
        code, out, err = run('diff', d, '--kernel', '0', '--pass', '88', '--color=never')
        assert code == 0 and 'stderr.txt:3166' in out.splitlines()[1], out[:300]
        h = run_json('history', d, '--source', 'vector_add.py:16')
        hv = run_json('history', VA, '--source', 'vector_add.py:16')
        assert [(s['index'], s['removed'], s['added']) for s in h['kernels'][0]['passes']] == \
            [(s['index'], s['removed'], s['added']) for s in hv['kernels'][0]['passes']]
        code, out, _ = run('history', d, '--source', 'vector_add.py:16')
        assert code == 0 and out.splitlines()[0].split(': ', 1)[1].startswith('/'), out[:200]
        # Written as a bundle (outside the folder read: never into the
        # input): the same timeline from its slices.
        with tempfile.TemporaryDirectory() as o:
            out_b = os.path.join(o, 'B')
            code, _, err = run('bundle', d, '-o', out_b)
            assert code == 0, err
            kb = run_json('passes', out_b)['kernels'][0]
            assert entries(kb) == entries(va) and kb['hash'] == k['hash']


@test
def html_on_a_folder_of_dump_files():
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, 'po')
        os.makedirs(src)
        pass_folder(src)
        out = os.path.join(d, 'report')
        code, _, err = run('--html', out, src)
        assert code == 0, err
        index = open(os.path.join(out, 'index.html'), encoding='utf-8').read()
        assert 'no final stages (pass dumps only)' in index and 'id="passes-only"' in index
        page = [f for f in os.listdir(out) if f.startswith('k001-')][0]
        html = open(os.path.join(out, page), encoding='utf-8').read()
        assert 'id="no-stages"' in html and 'No final stages were found' in html
        # no control is disabled (the page's own stylesheet, inline since
        # the report holds it by hash, names button:disabled: left out)
        markup = re.sub(r'<style[^>]*>.*?</style>', '', html, flags=re.S)
        assert 'id="mode-passes"' in markup and 'disabled' not in markup


@test
def bad_pass_folders():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, 'mlir_passes.txt')
        open(f, 'w').close()
        code, _, err = run('passes', d)
        assert code == 3 and f + ': error: neither a stage file nor a pass dump file: it is empty' in err, err
        with open(f, 'w') as fp:
            fp.write('Traceback (most recent call last):\n  oops\n')
        code, _, err = run('info', d)
        assert code == 3 and f + ': error:' in err and 'no pass dump header' in err, err


# ---- tkview diff ------------------------------------------------------------

@test
def diff_coalesce_hunk():
    code, out, err = run('diff', VA, '--kernel', 'add_kernel', '--pass', '14',
                         '--color=never')
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith('--- add_kernel: mlir_passes.txt:1178, IR before TritonGPUCoalesce')
    assert lines[1].startswith('+++ add_kernel: mlir_passes.txt:1251, IR after TritonGPUCoalesce')
    # The first hunk: body line 1 "#blocked = ..." (same on both sides), then
    # 1253 "#blocked1 = #ttg.blocked<{sizePerThread = [4], ...}>" added; the
    # #loc lines after them carry no IR and are not shown, so the context is
    # "module attributes", "tt.func", "%c1024_i32 = arith.constant".
    assert lines[2] == '@@ -1,4 +1,5 @@ TritonGPUCoalesce', lines[2]
    assert lines[3].startswith(' #blocked = #ttg.blocked<{sizePerThread = [1]')
    assert lines[4].startswith('+#blocked1 = #ttg.blocked<{sizePerThread = [4]')
    assert lines[5].startswith(' module attributes')
    # mlir_passes.txt:1201 "%x_4 = tt.load %x_3, %mask_2 : ..., #blocked>" goes,
    # 1274-1277 (convert, convert, load on #blocked1, convert back) come.
    # The replaced block is aligned by likeness (tk_diff_align): the old
    # load faces the new load (1276), the converts around it are added.
    i = lines.index('-    %x_4 = tt.load %x_3, %mask_2 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc29)')
    assert lines[i - 2].startswith('+    %x_4 = ttg.convert_layout %x_3')
    assert lines[i - 1].startswith('+    %x_5 = ttg.convert_layout %mask_2')
    assert lines[i + 1].startswith('+    %x_6 = tt.load %x_4, %x_5')
    assert lines[i + 2].startswith('+    %x_7 = ttg.convert_layout %x_6')
    assert sum(1 for l in lines if l.startswith('+') and not l.startswith('+++')) == 13
    assert sum(1 for l in lines if l.startswith('-') and not l.startswith('---')) == 3
    assert '\033[' not in out
    # By name, and with the inline stacks of changed lines.
    code, out2, _ = run('diff', VA, '--pass', 'TritonGPUCoalesce', '--stacks')
    assert code == 0
    j = out2.splitlines().index('+    %x_6 = tt.load %x_4, %x_5 : tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc29)')
    # #loc29 = loc("x"(#loc8)), #loc8 = vector_add.py:12:16
    assert out2.splitlines()[j + 1] == '#    vector_add.py:12:16'


@test
def diff_json_shape_and_stacks():
    r = run_json('diff', VA, '--pass', '14', '--context', '1')
    assert (r['added'], r['removed'], r['dialect'], r['context']) == (13, 3, 'mlir', 1)
    assert r['a']['text'] == 'mlir_passes.txt:1178' and r['b']['text'] == 'mlir_passes.txt:1251'
    assert r['from']['pass'] == 'TritonGPUCoalesce' and r['to']['index'] == 14
    h = r['hunks'][0]
    assert set(h) == {'a_start', 'a_count', 'b_start', 'b_count', 'lines'}
    assert (h['a_start'], h['a_count'], h['b_start'], h['b_count']) == (1, 2, 1, 3), h
    added = [l for hk in r['hunks'] for l in hk['lines'] if l['op'] == '+']
    assert len(added) == 13
    load = next(l for l in added if '%x_6 = tt.load' in l['text'])
    assert load['a_line'] is None and load['b_line'] == 26
    assert load['stacks'][0][0]['file'].endswith('/vector_add.py')
    assert (load['stacks'][0][0]['line'], load['stacks'][0][0]['col']) == (12, 16)
    ctx = next(l for hk in r['hunks'] for l in hk['lines'] if l['op'] == ' ')
    assert 'stacks' not in ctx and ctx['a_line'] and ctx['b_line']


@test
def diff_range_and_refusals():
    # Pass 13 (ConvertTritonToTritonGPU, 1106) to 14: before 1106, after 1251.
    r = run_json('diff', VA, '--pass', '13', '--to', '14')
    assert (r['a']['text'], r['b']['text']) == ('mlir_passes.txt:1106', 'mlir_passes.txt:1251')
    # TTGIR against LLVM IR, a pass number past the end, an ambiguous name.
    assert run('diff', VA, '--pass', '60', '--to', '80')[0] == 2
    assert run('diff', VA, '--pass', '999')[0] == 2
    code, _, err = run('diff', VA, '--pass', 'Canonicalizer')
    assert code == 2 and 'give its number' in err
    assert run('diff', VA, '--pass', 'NoSuchPass')[0] == 1
    assert run('diff', VA, '--pass', '14', '--to', '13')[0] == 2
    # LLVMDIScope: nothing after it (refused); the first LLVM IR dump
    # (stderr.txt:70): nothing before it, so its IR after it is shown.
    code, _, err = run('diff', VA, '--pass', '72')
    assert code == 1 and 'no dump after it' in err
    code, out, _ = run('diff', VA, '--pass', '73')
    assert code == 0 and 'Its IR after it, stderr.txt:70:' in out, (code, out[:300])
    # An unchanged pass: nothing to show, exit 1.
    code, out, err = run('diff', VA, '--pass', '7')
    assert code == 1 and out == '' and 'compare equal' in err
    # A sub-step: ExpandLoops (stderr.txt:35) against LowerLoops (1): equal.
    assert run('diff', VA, '--pass', '33.1')[0] == 1
    assert run('diff', VA, '--pass', '33.5')[0] == 2
    assert run('diff', VA, '--pass', '14', '--color', 'sometimes')[0] == 2
    assert run('diff', VA, '--pass', '14', '--stage', 'ttgir')[0] == 2
    assert run('diff', VA)[0] == 2
    assert run('diff', '/nonexistent/x', '--pass', '1')[0] == 3


@test
def diff_colour_on_a_terminal_and_no_color():
    env = dict(os.environ)
    env.pop('NO_COLOR', None)
    code, out = run_tty('diff', VA, '--pass', '14', env=env)
    assert code == 0
    assert '\033[32m+#blocked1' in out and '\033[31m-    %x_4 = tt.load' in out
    assert '\033[36m@@ -1,4 +1,5 @@' in out
    env['NO_COLOR'] = '1'
    code, out = run_tty('diff', VA, '--pass', '14', env=env)
    assert code == 0 and '\033[' not in out and '+#blocked1' in out
    # --color=always wins over NO_COLOR; --color=never over a terminal.
    code, out = run_tty('diff', VA, '--pass', '14', '--color=always', env=env)
    assert '\033[32m' in out
    del env['NO_COLOR']
    code, out = run_tty('diff', VA, '--pass', '14', '--color=never', env=env)
    assert '\033[' not in out


@test
def diff_two_autotune_configs():
    # kernel_dump/47QG.../mm_kernel.ttgir is config 448532f3 ("ttg.num-warps"
    # = 8); YPVO.../mm_kernel.ttgir is a5fca209 (= 4); both "mm_kernel".
    r = run_json('diff', AT, '--kernel', 'mm_kernel:4485', '--kernel-b', 'mm_kernel:a5fc',
                 '--stage', 'ttgir')
    assert r['kernel']['hash'].startswith('448532f3')
    assert r['kernel_b']['hash'].startswith('a5fca209')
    assert r['stage'] == 'ttgir' and r['added'] > 0 and r['removed'] > 0
    lines = [l for h in r['hunks'] for l in h['lines']]
    assert any(l['op'] == '-' and '"ttg.num-warps" = 8' in l['text'] for l in lines)
    assert any(l['op'] == '+' and '"ttg.num-warps" = 4' in l['text'] for l in lines)
    # Changed lines carry the stacks of their own stage.
    assert any(l['op'] == '+' and l['stacks'] for l in lines)
    # A kernel against itself: equal, exit 1.
    assert run('diff', AT, '--kernel', '0', '--kernel-b', '0', '--stage', 'ttgir')[0] == 1
    # One PATH without --kernel-b, or two kernels of the name in PATH_B.
    assert run('diff', AT, '--kernel', '0', '--stage', 'ttgir')[0] == 2
    code, _, err = run('diff', VA, AT, '--stage', 'ttgir')
    assert code == 2 and 'add_kernel' in err
    code, _, err = run('diff', AT, AT, '--kernel', '0', '--stage', 'ttgir')
    assert code == 2 and '--kernel-b' in err
    assert run('diff', AT, '--kernel', '0', '--kernel-b', '1', '--stage', 'nope')[0] == 2


@test
def diff_two_bundles():
    # The sample bundle was written from the vector_add capture: same texts.
    samples = os.environ['TK_TEST_SAMPLES']
    code, _, err = run('diff', VA, os.path.join(samples, 'vector_add'), '--stage', 'ttgir')
    assert code == 1, err
    # USE_IR_LOC=ttir changes the names of the TTGIR values (%pid -> %0 ...).
    code, out, _ = run('diff', VA, os.path.join(DUMPS, 'vector_add_irloc_ttir'),
                       '--stage', 'ttgir', '--color=never')
    assert code == 0 and out.startswith('--- add_kernel faf6139b')


# ---- tkview history ---------------------------------------------------------

@test
def history_vector_add_line16():
    r = run_json('history', VA, '--source', 'vector_add.py:16')
    assert r['query']['match'] == 'called'
    assert r['query']['file'].endswith('/vector_add.py') and r['query']['line'] == 16
    k = r['kernels'][0]
    steps = {s['index']: s for s in k['passes']}
    # ConvertTritonToTritonGPU (1106): the tt.reshape and the reduce's closing
    # line (loc(#loc35): standard.py:293 called from vector_add.py:16) get a
    # #blocked type: 2 lines out, 2 in.
    s = steps[13]
    assert (s['pass'], s['line'], s['removed'], s['added']) == \
        ('ConvertTritonToTritonGPU', 1106, 2, 2), s
    # ConvertTritonGPUToLLVM (4756): the six TTGIR lines of the reduce
    # (4785-4790) are replaced by LLVM dialect code of line 16.
    s = steps[62]
    assert s['pass'] == 'ConvertTritonGPUToLLVM' and s['removed'] == 6 and s['added'] > 6
    assert 14 not in steps  # Coalesce changes loads and stores only
    assert any(s['level'] == 'llvm-ir' for s in k['passes'])
    assert k['changed_passes_read'] >= len(k['passes'])
    code, out, _ = run('history', VA, '--source', 'vector_add.py:16')
    assert code == 0 and 'ConvertTritonGPUToLLVM' in out


@test
def a_pass_with_nothing_before_it_shows_its_ir_after_it():
    # sample_dumps/amd_gfx942, add_sum_kernel: pass 61 is LLVM's first dump
    # ("; *** IR Dump After Annotation2MetadataPass on [module] ***", line 1
    # of passes/llvm.txt.gz): no IR of its level before it.  Its text runs to
    # the next header: 295 lines, of which 42 are blank and 25 debug-info
    # metadata (`!N = !DI...`, `distinct !DI...`), which a diff leaves out:
    # 228 lines, the first "; ModuleID = 'LLVMDialectModule'".
    amd = os.path.join(os.environ['TK_TEST_SAMPLES'], 'amd_gfx942')
    code, out, err = run('diff', amd, '--kernel', '0', '--pass', '61', '--wide')
    assert code == 0, (code, err)
    lines = out.split('\n')
    assert lines[0].startswith('add_sum_kernel: Annotation2MetadataPass (pass 61): '
                               'Effect unknown: nothing comparable before it.'), lines[0]
    assert lines[1] == 'Its IR after it, llvm.txt.gz:1:', lines[1]
    body = [l for l in lines[2:] if l]
    assert len(body) == 228, len(body)
    assert body[0] == "     1  ; ModuleID = 'LLVMDialectModule'", body[0]
    # JSON has no form for one side alone: the sentence, exit status 1
    code, out, err = run('diff', amd, '--kernel', '0', '--pass', '61', '--json')
    assert code == 1 and out == '' and 'nothing comparable before it' in err, (code, err)


@test
def history_exact_and_nothing():
    r = run_json('history', VA, '--source', 'vector_add.py:16', '--exact')
    assert r['query']['match'] == 'exact'
    assert 13 not in {s['index'] for s in r['kernels'][0]['passes']}
    assert run('history', VA, '--source', 'vector_add.py:1')[0] == 1
    assert run('history', VA, '--source', 'vector_add.py')[0] == 2
    assert run('history', VA)[0] == 2
    assert run('history', '/nonexistent/x', '--source', 'a.py:1')[0] == 3
    assert run('history', AT, '--source', 'autotuned_matmul.py:1', '--kernel', 'nope')[0] == 2


@test
def history_text_columns_and_notes_once():
    code, out, _ = run('history', VA, '--source', 'vector_add.py:16')
    assert code == 0
    rows = out.splitlines()
    # The columns of `tkview passes`: the effect as "+added -removed".
    assert rows[1].split() == ['#', 'level', 'effect', 'pass'], rows[1]
    # ConvertTritonGPUToLLVM (mlir_passes.txt:4756) removes the six TTGIR
    # lines of the reduce (4785-4790) and adds more than six.
    row = next(r for r in rows if 'ConvertTritonGPUToLLVM' in r).split()
    assert row[0] == '62' and row[3] == '-6' and row[2].startswith('+'), row
    assert int(row[2][1:]) > 6, row
    # The "no locations" note: once, after the table.
    notes = [r for r in rows if 'carry no locations' in r]
    assert len(notes) == 1 and rows[-1] == notes[0], rows[-3:]
    # Three kernels, each with LLVM loop-only dumps that use metadata they do
    # not print (stderr.txt:67171 "; *** IR Dump After LICMPass on loop
    # %<unnamed loop> in function mm_kernel ***", then "!dbg !7" at 67174):
    # their notes come as one line unless --verbose.
    code, out, err = run('history', AT, '--source', 'autotuned_matmul.py:15')
    assert code == 0, err
    assert len([r for r in out.splitlines() if 'carry no locations' in r]) == 1
    notes = [r for r in err.splitlines() if 'note:' in r]
    assert len(notes) == 1 and '--verbose' in notes[0], err
    n = int(notes[0].split('note: ')[1].split()[0])
    code, _, err = run('history', AT, '--source', 'autotuned_matmul.py:15', '--verbose')
    assert code == 0 and len([r for r in err.splitlines() if 'note:' in r]) == n > 1, err
    code, _, err = run('history', AT, '--source', 'autotuned_matmul.py:15', '--quiet')
    assert code == 0 and err == '', err


sys.exit(finish())
