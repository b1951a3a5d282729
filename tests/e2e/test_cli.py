#!/usr/bin/env python3
"""End-to-end tests of the tkview program on the real shared dumps.

Expected line numbers were read off the dump files by hand (grep -n); the
comments quote the lines.  Prints TAP.

Usage: test_cli.py TKVIEW   (TK_TEST_DUMPS names the unpacked dumps)
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, test  # noqa: E402

TKVIEW = sys.argv[1]
DUMPS = os.environ['TK_TEST_DUMPS']


# Without a command, tkview opens the desktop viewer when there is a display;
# these tests are about the command line, so they never offer it one.
ENV = {k: v for k, v in os.environ.items()
       if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300, env=ENV)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def run_json(*args, rc=0):
    code, out, err = run(*args, '--json')
    assert code == rc, (code, err)
    return json.loads(out)


def lines(stage):
    return [x['line'] for x in stage]


VA = os.path.join(DUMPS, 'vector_add')


@test
def version_and_help():
    code, out, _ = run('--version')
    assert code == 0 and out.startswith('tkview '), out
    code, out, _ = run('--help')
    assert code == 0 and 'bind' in out and 'Exit status' in out
    code, _, err = run()
    assert code == 2 and 'Usage' in err
    code, _, err = run('frobnicate')
    assert code == 2 and 'unknown command' in err


@test
def missing_input_exits_3_naming_it():
    code, _, err = run('info', '/nonexistent/tkview-capture')
    assert code == 3, code
    assert '/nonexistent/tkview-capture' in err, err
    # A device, a folder of unrelated text files, a binary: nothing loads.
    for path in ['/dev/null', '/etc', TKVIEW]:
        code, out, err = run('info', path)
        assert code == 3 and path in err and out == '', (path, code, out, err)


@test
def bad_arguments_exit_2():
    assert run('bind', VA, '--source', 'vector_add.py')[0] == 2
    assert run('bind', VA, '--source', 'vector_add.py:0')[0] == 2
    assert run('bind', VA, '--ir', 'nope:3')[0] == 2
    assert run('bind', VA, '--source', 'a.py:1', '--ir', 'ttgir:1')[0] == 2
    assert run('bind', VA, '--ir', 'ttgir:999999')[0] == 2
    assert run('bind', VA, '--source', 'vector_add.py:16', '--stage', 'x')[0] == 2


@test
def info_vector_add():
    info = run_json('info', VA)
    assert info['input'] == 'capture'
    assert len(info['kernels']) == 1
    k = info['kernels'][0]
    # cache/7L3B.../add_kernel.json: "hash": "faf6139b...", "num_warps": 4, "shared": 16
    assert k['name'] == 'add_kernel'
    assert k['hash'] == 'faf6139b811501f9f751b2258231814f463644ba3904b8d275db11023f360197'
    assert k['metadata']['num_warps'] == 4 and k['metadata']['shared_bytes'] == 16
    assert k['metadata']['target'] == 'cuda:90'
    # wc -l: add_kernel.ttgir has 71 lines, .ttir 69, .sass_gi is the SASS.
    assert k['stages']['ttir']['lines'] == 69
    assert k['stages']['sass']['path'].endswith('.sass_gi')
    srcs = {s['path']: s['resolved'] for s in info['sources']}
    assert srcs['/tmp/capture/vector_add/src/vector_add.py'].endswith('vector_add/src/vector_add.py')
    std = [p for p in srcs if p.endswith('/triton/language/standard.py')]
    assert std and srcs[std[0]] is None


@test
def bind_vector_add_line16():
    # add_kernel.ttgir lines 29-34:
    #   29 %s = tt.reshape ... loc(#loc35)       30 %s_7 = "tt.reduce"(%s) ... ({
    #   31 ^bb0(%s_10: f32 loc(callsite(#loc1 at #loc33)), ...
    #   32 %s_12 = arith.addf ... loc(#loc37)    33 tt.reduce.return ... loc(#loc35)
    #   34 }) : (tensor<1024xf32, #blocked1>) -> f32 loc(#loc35)
    r = run_json('bind', VA, '--source', 'vector_add.py:16')
    assert r['query']['file'] == '/tmp/capture/vector_add/src/vector_add.py'
    assert r['query']['match'] == 'called'
    (k,) = r['kernels']
    assert lines(k['stages']['ttgir']) == [29, 30, 31, 32, 33, 34], lines(k['stages']['ttgir'])
    # add_kernel.ptx: 96 `add.f32 %r47` (under .loc 1 14 17), 97 `$L__tmp1:`,
    # 98 `.loc 2 263 15 // standard.py:263:15 @[ standard.py:293:36 @[ vector_add.py:16:15 ] ]`,
    # 99-105 seven add.f32, 106 `$L__tmp2:`, 107 `.loc 2 293 36`, 108 shfl.
    ptx = lines(k['stages']['ptx'])
    assert 96 not in ptx and 97 not in ptx and 106 not in ptx
    assert all(n in ptx for n in [98, 99, 105, 107, 108])
    line99 = next(x for x in k['stages']['ptx'] if x['line'] == 99)
    assert [(os.path.basename(f['file']), f['line'], f['col']) for f in line99['stacks'][0]] == \
        [('standard.py', 263, 15), ('standard.py', 293, 36), ('vector_add.py', 16, 15)]
    # add_kernel.sass_gi line 65 `/*01b0*/ S2UR UR5, SR_CgaCtaId ;` under
    # `//## File ".../standard.py", line 293`: callers come from the PTX.
    sass = {x['line']: x for x in k['stages']['sass']}
    assert 65 in sass and sass[65]['stacks_inferred'], sorted(sass)
    # `/*01f0*/ FADD R12, R12, R16 ;` (line 70) is under `line 14`.
    assert 70 not in sass

    r = run_json('bind', VA, '--source', 'src/vector_add.py:16', '--exact', '--stage', 'ttgir')
    assert list(r['kernels'][0]['stages']) == ['ttgir']
    assert lines(r['kernels'][0]['stages']['ttgir']) == [31]
    # Text output names the stage and counts instructions only: 29, 30, 32,
    # 33 are ops; 31 (the block header ^bb0) and 34 (the "})" that closes
    # the reduce) carry locations but are not code.
    code, out, _ = run('bind', VA, '--source', 'vector_add.py:16', '--stage', 'ttgir')
    assert code == 0 and 'ttgir: 4 instructions (+ 2 located lines that are not code)' in out, out
    r = run_json('bind', VA, '--source', 'vector_add.py:16', '--stage', 'ttgir')
    by = {x['line']: x for x in r['kernels'][0]['stages']['ttgir']}
    assert [n for n in sorted(by) if by[n].get('directive')] == [31, 34], by
    assert (by[31]['kind'], by[34]['kind'], by[32]['kind']) == ('label', 'other', 'instruction')
    # add_kernel.ptx line 98 `.loc 2 263 15 ...` is returned, marked.
    r = run_json('bind', VA, '--source', 'vector_add.py:16', '--stage', 'ptx')
    by = {x['line']: x for x in r['kernels'][0]['stages']['ptx']}
    assert by[98]['directive'] is True and by[98]['kind'] == 'directive'
    assert 'directive' not in by[99] and by[99]['kind'] == 'instruction'


@test
def bind_by_local_path():
    r = run_json('bind', VA, '--source', os.path.join(VA, 'src', 'vector_add.py') + ':16',
                 '--stage', 'ttgir')
    assert lines(r['kernels'][0]['stages']['ttgir']) == [29, 30, 31, 32, 33, 34]


@test
def bind_nothing_exits_1():
    code, out, err = run('bind', VA, '--source', 'vector_add.py:2')
    assert code == 1, (code, out, err)
    code, _, err = run('bind', VA, '--source', 'elsewhere.py:3')
    assert code == 1 and 'elsewhere.py' in err


@test
def bind_ir_ttgir_to_others():
    # TTGIR 32 `%s_12 = arith.addf` (standard.py:263:15 <- 293:36 <- vector_add.py:16:15)
    r = run_json('bind', VA, '--ir', 'ttgir:32')
    assert r['query']['line'] == 32
    assert [f['line'] for f in r['query']['stacks'][0]] == [263, 293, 16]
    ptx = lines(r['stages']['ptx'])
    assert 98 in ptx and 99 in ptx and 107 not in ptx and 108 not in ptx
    # add_kernel.sass_gi line 75 `/*0230*/ FADD R17, R12, R13 ;` under line 263.
    assert 75 in lines(r['stages']['sass'])
    assert 65 not in lines(r['stages']['sass'])


@test
def compiled_block_binds_into_inductor_files():
    cb = os.path.join(DUMPS, 'compiled_block')
    info = run_json('info', cb)
    assert len(info['kernels']) == 16
    f = 'ckql22fc3g4d2fp3iixagiokv6qi3pn57ziccryoijbacmqyop57.py'
    srcs = {s['path']: s['resolved'] for s in info['sources']}
    p = '/tmp/capture/compiled_block/inductor/kq/' + f
    assert srcs[p] and srcs[p].endswith('inductor/kq/' + f)
    # Line 29 `tmp5 = libdevice.erf(tmp4)`: #loc10 = ...py":29:25, #loc27 = "tmp5"(#loc10);
    # line 22 of both triton_poi_fused_gelu_view_7.ttgir (XBLOCK 1024 and 512):
    #   %tmp5 = tt.extern_elementwise %tmp4 {... symbol = "__nv_erff"} ... loc(#loc27)
    r = run_json('bind', cb, '--source', f + ':29', '--stage', 'ttgir')
    assert [k['name'] for k in r['kernels']] == ['triton_poi_fused_gelu_view_7'] * 2
    for k in r['kernels']:
        assert lines(k['stages']['ttgir']) == [22]
    code, _, err = run('bind', cb, '--ir', 'ttgir:22')
    assert code == 2 and '16 kernels' in err


@test
def autotuned_matmul_three_kernels():
    info = run_json('info', os.path.join(DUMPS, 'autotuned_matmul'))
    assert [k['name'] for k in info['kernels']] == ['mm_kernel'] * 3
    assert len({k['hash'] for k in info['kernels']}) == 3


@test
def hostile_text_is_not_sent_raw_to_the_terminal():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(VA, 'kernel_dump')
        k = os.listdir(src)[0]
        with open(os.path.join(src, k, 'add_kernel.ttgir')) as f:
            text = f.read()
        text = text.replace('%pid = tt.get_program_id x', '%pid = tt.get_program_id x \x1b]0;pwned\x07')
        with open(os.path.join(d, 'add_kernel.ttgir'), 'w') as f:
            f.write(text)
        code, out, _ = run('bind', d, '--source', 'vector_add.py:8')
        assert code == 0, code
        assert '\x1b' not in out and '\\x1b' in out


@test
def refs_text_has_a_header():
    code, out, _ = run('refs', VA, '--stage', 'ttir')
    assert code == 0
    rows = out.splitlines()
    # "  ttir: 13 source lines", then the column names, then the rows.
    i = next(i for i, r in enumerate(rows) if r.strip().startswith('ttir:'))
    assert rows[i + 1].split() == ['exact', 'called', 'source', 'line'], rows[i + 1]
    # vector_add.py:16 is the reduce; most of its TTIR lines are inlined from
    # standard.py: add_kernel.ttir:27-32 end in loc(#loc35), and line 68
    # "#loc35 = loc(callsite(#loc12 at #loc33))" is standard.py:293 called
    # from vector_add.py:16: counted under "called", not "exact".
    row = next(r for r in rows if r.endswith('/vector_add.py:16')).split()
    assert int(row[0]) < int(row[1]), row


@test
def sample_bundle_and_round_trip():
    import tempfile
    samples = os.environ['TK_TEST_SAMPLES']
    info = run_json('info', os.path.join(samples, 'vector_add'))
    assert info['input'] == 'bundle'
    assert info['kernels'][0]['hash'].startswith('faf6139b')
    # sources/ of the bundle is where vector_add.py is found, not the original path.
    srcs = {s['path']: s['resolved'] for s in info['sources']}
    assert '/sources/' in srcs['/tmp/capture/vector_add/src/vector_add.py']
    r = run_json('bind', os.path.join(samples, 'vector_add'), '--source', 'vector_add.py:16',
                 '--stage', 'ttgir')
    assert lines(r['kernels'][0]['stages']['ttgir']) == [29, 30, 31, 32, 33, 34]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'b')
        code, _, err = run('bundle', os.path.join(DUMPS, 'compiled_block'), '-o', out)
        assert code == 0, err
        again = run_json('info', out)
        assert len(again['kernels']) == 16
        orig = run_json('refs', os.path.join(DUMPS, 'compiled_block'))
        assert run_json('refs', out) == orig
        # An existing non-empty folder is never overwritten.
        code, _, err = run('bundle', VA, '-o', out)
        assert code != 0 and out in err
        assert len(run_json('info', out)['kernels']) == 16


@test
def missing_stages_say_why():
    # gluon_copy's kernel_dump/ folder holds no .ttir (`ls` shows ttgir, llir,
    # ptx, sass...); the MLIR-route sample was made without nvdisasm and its
    # manifest says so in "sass_missing".
    k = run_json('info', os.path.join(DUMPS, 'gluon_copy', 'kernel_dump'))['kernels'][0]
    assert k['stages']['ttir'] is None and 'ttir' in k['missing_stages']['ttir']
    assert 'sass' not in k['missing_stages']
    samples = os.environ['TK_TEST_SAMPLES']
    mlir = os.path.join(samples, 'add_sum_mlir')
    with open(os.path.join(mlir, 'manifest.json')) as f:
        recorded = json.load(f)['kernels'][0]['sass_missing']
    k = run_json('info', mlir)['kernels'][0]
    assert k['missing_stages']['sass'] == recorded, k['missing_stages']
    code, out, _ = run('info', mlir)
    assert '(missing: ' + recorded in out
    # Written again as a bundle, the reason stays.
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        out_dir = os.path.join(d, 'again')
        assert run('bundle', mlir, '-o', out_dir)[0] == 0
        k = run_json('info', out_dir)['kernels'][0]
        assert k['missing_stages']['sass'] == recorded


@test
def gpu_dialect_kernels_name_their_compile():
    # The MLIR-route sample's pass dumps hold `gpu.module @add_sum {` with
    # `    gpu.func @add_sum(...) kernel {` inside.  Rename the module (and the
    # headers' scope): the compile must still be named after the gpu.func.
    import glob
    import gzip
    import tempfile
    samples = os.environ['TK_TEST_SAMPLES']
    (gz,) = glob.glob(os.path.join(samples, 'add_sum_mlir', '*', 'passes', 'mlir.txt.gz'))
    text = gzip.open(gz, 'rt').read()
    assert '    gpu.func @add_sum(' in text
    text = text.replace('gpu.module @add_sum', 'gpu.module @kernels')
    text = text.replace("operation: @add_sum) //", "operation: @kernels) //")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'dumps.txt')
        with open(path, 'w') as f:
            f.write(text)
        info = run_json('info', path)
        assert [k['name'] for k in info['kernels']] == ['add_sum'], info['kernels']


@test
def fifos_and_special_files_never_block():
    # A FIFO named like a stage, and one named like a dump, beside a real PTX:
    # opening a FIFO for reading would wait forever for a writer.
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.mkfifo(os.path.join(d, 'k.ttir'))
        os.mkfifo(os.path.join(d, 'stderr.txt'))
        src = os.path.join(VA, 'kernel_dump')
        shutil.copy(os.path.join(src, os.listdir(src)[0], 'add_kernel.ptx'), d)
        code, out, err = run('info', d)
        assert code == 0 and 'add_kernel' in out, (code, out, err)

# ---- AMD: sample_dumps/amd_gfx942 (Triton 3.6, hip:gfx942, compile only) -------

AMD = os.path.join(os.environ.get('TK_TEST_SAMPLES', ''), 'amd_gfx942')
AMD_PY = '/work/main/compiler/examples/amd/compile_gfx942.py'


def amd_text(kernel, ext):
    folder = {'matmul_kernel': 'matmul_kernel-afb56eb9',
              'add_sum_kernel': 'add_sum_kernel-90dc219a'}[kernel]
    with open(os.path.join(AMD, folder, kernel + '.' + ext)) as f:
        return f.read().split('\n')


@test
def amd_info_lists_the_amd_stages_and_resources():
    info = run_json('info', AMD)
    assert info['compiler'] == 'triton 3.6.0', info['compiler']
    ks = {k['name']: k for k in info['kernels']}
    assert set(ks) == {'add_sum_kernel', 'matmul_kernel'}
    for k in ks.values():
        # The stages of the AMD backend, no PTX or SASS to miss.
        assert list(k['stages']) == ['ttir', 'ttgir', 'llir', 'amdgcn'], list(k['stages'])
        assert k['missing_stages'] == {}, k['missing_stages']
        assert k['stages']['amdgcn']['inline_frames'] is True
    # matmul_kernel.json: "shared": 8192, "warp_size": 64, "waves_per_eu": 0;
    # matmul_kernel.amdgcn 1354 ".vgpr_count:     76", 1349 ".sgpr_count:
    # 28", 1303 "  - .agpr_count:     16", 1348 ".private_segment_fixed_size:
    # 0", 1343 ".group_segment_fixed_size: 0", 1135 "; Occupancy: 6".
    m = ks['matmul_kernel']['metadata']
    assert m['target'] == 'hip:gfx942' and m['shared_bytes'] == 8192, m
    assert (m['warp_size'], m['waves_per_eu'], m['registers'], m['sgprs'], m['agprs'],
            m['spill_bytes'], m['lds_static_bytes'], m['occupancy']) == \
        (64, 0, 76, 28, 16, 0, 0, 6), m
    # add_sum_kernel.amdgcn 556 ".vgpr_count:     14", 551 ".sgpr_count:
    # 21", 356 "; Occupancy: 8"; add_sum_kernel.json "shared": 16.
    m = ks['add_sum_kernel']['metadata']
    assert (m['registers'], m['sgprs'], m['occupancy'], m['shared_bytes']) == (14, 21, 8, 16), m
    code, out, _ = run('info', AMD)
    assert code == 0 and '  amdgcn ' in out and '  ptx ' not in out, out
    assert 'amd: wavefront 64, waves_per_eu 0, sgprs 28, agprs 16' in out, out


@test
def amd_tl_dot_binds_to_its_mfma():
    # compile_gfx942.py 58 `acc = tl.dot(a, b, acc)`.  matmul_kernel.amdgcn
    # has 8 `v_mfma_f32_32x32x8_f16` (341 355 360 365 589 604 611 612), each
    # after `.loc 1 58 27 ; compile_gfx942.py:58:27` (339 353 586 602 607).
    # matmul_kernel.ttir 66 `%acc_53 = tt.dot ...` loc(#loc88); .ttgir 98 and
    # 118 `tt.dot` loc(#loc85) = "acc"(#loc33); .llir 339 `... @llvm.amdgcn.mfma.
    # f32.32x32x8f16(...), !dbg !37` with 980 `!37 = !DILocation(line: 58,
    # column: 27, ...)`.
    text = amd_text('matmul_kernel', 'amdgcn')
    mfma = [i for i, l in enumerate(text, 1) if 'v_mfma_f32_32x32x8_f16' in l]
    assert mfma == [341, 355, 360, 365, 589, 604, 611, 612], mfma
    r = run_json('bind', AMD, '--kernel', 'matmul_kernel', '--source', 'compile_gfx942.py:58')
    st = r['kernels'][0]['stages']
    assert list(st) == ['ttir', 'ttgir', 'llir', 'amdgcn'], list(st)
    got = {x['line']: x for x in st['amdgcn']}
    for n in mfma:
        assert n in got, n
        [stack] = got[n]['stacks']
        assert [(f['file'], f['line'], f['col']) for f in stack] == [(AMD_PY, 58, 27)], stack
    assert 339 in got and 1046 not in got
    assert 66 in lines(st['ttir']) and {98, 118} <= set(lines(st['ttgir']))
    assert 339 in lines(st['llir'])
    # And back: the mfma at 341 comes from those TTIR and TTGIR dots.
    r = run_json('bind', AMD, '--kernel', 'matmul_kernel', '--ir', 'amdgcn:341')
    assert list(r['stages']) == ['ttir', 'ttgir', 'llir'], list(r['stages'])
    assert lines(r['stages']['ttir']) == [66], r['stages']['ttir']
    assert {98, 118} <= set(lines(r['stages']['ttgir']))


@test
def amd_inlined_helper_keeps_its_caller():
    # compile_gfx942.py 38 `return tl.where(x >= 0, x, slope * x)` in
    # leaky_relu, called at 62 `acc = leaky_relu(acc, 0.01)`.
    # matmul_kernel.amdgcn 1045 `.loc 1 38 39 ; compile_gfx942.py:38:39 @[
    # compile_gfx942.py:62:30 ]`, 1046 `v_mul_f32_e32 v2, 0x3c23d70a, v4`;
    # .ttgir 126 `%acc_59 = arith.mulf %acc_57, %acc ... loc(#loc94)`,
    # 231 `#loc94 = loc(callsite(#loc3 at #loc56))`.
    r = run_json('bind', AMD, '--kernel', 'matmul_kernel', '--ir', 'amdgcn:1046')
    [stack] = r['query']['stacks']
    assert [(f['line'], f['col']) for f in stack] == [(38, 39), (62, 30)], stack
    assert 126 in lines(r['stages']['ttgir']), r['stages']['ttgir']
    # From the call's line, "what it called" reaches the helper's AMDGCN;
    # --exact keeps the call's own code only.
    r = run_json('bind', AMD, '--kernel', 'matmul_kernel', '--source', 'compile_gfx942.py:62',
                 '--stage', 'amdgcn')
    assert 1046 in lines(r['kernels'][0]['stages']['amdgcn'])
    r = run_json('bind', AMD, '--kernel', 'matmul_kernel', '--source', 'compile_gfx942.py:62',
                 '--stage', 'amdgcn', '--exact', rc=1)


@test
def amd_passes_list_the_amd_pipeline():
    code, _, err = run('passes', AMD, '--kernel', 'add_sum_kernel')
    assert code == 0 and 'warning' not in err, err
    r = run_json('passes', AMD, '--kernel', 'add_sum_kernel')
    names = [p['pass'] for p in r['kernels'][0]['passes']]
    for p in ('TritonAMDGPUAccelerateMatmul', 'TritonAMDGPUPipeline',
              'ConvertTritonAMDGPUToLLVM', 'DummyCGSCCPass',
              'AMDGPU DAG->DAG Pattern Instruction Selection'):
        assert p in names, p


@test
def passes_changes_counts_what_diff_prints():
    # `tkview passes --changes`: each changed pass's changes in one run.
    # sample_dumps/amd_gfx942 add_sum_kernel pass 16 (TritonGPUCoalesce),
    # read in `tkview diff --pass 16`: #blocked1 added at line 2; the x
    # and y loads rewritten at lines 24-33 (two equal lines between them:
    # one change with 3 lines of context); the store at line 47.  3 changes.
    r = run_json('passes', AMD, '--kernel', 'add_sum_kernel', '--changes')
    ps = r['kernels'][0]['passes']
    assert ps[16]['pass'] == 'TritonGPUCoalesce' and ps[16]['changes'] == 3, ps[16]
    # an unchanged pass has none, an unknown one no count
    assert all(p['changes'] == 0 for p in ps if p['effect'] == 'unchanged')
    assert all(p['changes'] is None for p in ps if p['effect'] == 'unknown')
    # and every count is the number of hunks `tkview diff --json` prints
    changed = [p for p in ps if p['effect'] == 'changed']
    assert len(changed) > 20
    for p in changed[:: max(1, len(changed) // 12)]:
        d = run_json('diff', AMD, '--kernel', 'add_sum_kernel', '--pass', str(p['index']))
        assert len(d['hunks']) == p['changes'], (p['index'], len(d['hunks']), p['changes'])
    # without --changes nothing is counted
    r = run_json('passes', AMD, '--kernel', 'add_sum_kernel')
    assert all(p['changes'] is None for p in r['kernels'][0]['passes'])



ATTN = os.path.join(os.environ['TK_TEST_SAMPLES'], 'attention_fwd')


@test
def statement_binds_from_any_of_its_lines():
    # sample_dumps/attention_fwd/sources/0000-attention_fwd.py:
    #   71     acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_n,
    #   72                                 start_m, qk_scale, offs_m, offs_n,
    #   73                                 BLOCK_M, BLOCK_N, STAGE=1)
    # Triton recorded the call at 73: attn_fwd.ttgir:121
    #   %qk_100 = ttng.warp_group_dot ... is attention_fwd.py:31:23 <- :73:41,
    # and no location names line 71 or 72 (grep ':7[12]:' finds none).
    want = run_json('bind', ATTN, '--source', 'attention_fwd.py:73')
    for line in (71, 72):
        r = run_json('bind', ATTN, '--source', 'attention_fwd.py:%d' % line)
        assert r['query']['line'] == line
        assert r['query']['statement'] == {'first': 71, 'last': 73}, r['query']
        assert r['query']['line_status'] == 'code'
        assert r['query']['file_lines'] == 103
        (k,) = r['kernels']
        assert k['recorded_lines'] == [73], k['recorded_lines']
        assert k['stages'] == want['kernels'][0]['stages']
        assert 121 in lines(k['stages']['ttgir'])
    code, out, _ = run('bind', ATTN, '--source', 'attention_fwd.py:71', '--stage', 'ttgir')
    assert code == 0, code
    assert ('statement lines 71-73: Triton recorded it at line 73, so '
            'attention_fwd.py:71 binds to its IR') in out, out
    # The second call, 75-77, recorded at 77; the first line of each call
    # binds like its last, and the two calls differ.
    r75 = run_json('bind', ATTN, '--source', 'attention_fwd.py:75')
    r77 = run_json('bind', ATTN, '--source', 'attention_fwd.py:77')
    assert r75['kernels'][0]['stages'] == r77['kernels'][0]['stages']
    assert r75['kernels'][0]['stages'] != want['kernels'][0]['stages']
    # --exact keeps the statement too.
    e71 = run_json('bind', ATTN, '--source', 'attention_fwd.py:71', '--exact')
    e73 = run_json('bind', ATTN, '--source', 'attention_fwd.py:73', '--exact')
    assert e71['kernels'][0]['stages'] == e73['kernels'][0]['stages']


@test
def past_the_end_and_blank_lines_say_so():
    # The file has 103 lines (the last: `    main()`); line 70 is the comment
    # "# Off-band: every key block strictly left of the diagonal."
    code, out, err = run('bind', ATTN, '--source', 'attention_fwd.py:104')
    assert code == 4, code
    assert 'has 103 lines: line 104 is past its end' in err, err
    code, out, err = run('bind', ATTN, '--source', 'attention_fwd.py:70')
    assert code == 1, code
    assert 'attention_fwd.py:70 is a blank or comment line: no code' in out, out
    r = run_json('bind', ATTN, '--source', 'attention_fwd.py:70', rc=1)
    assert r['query']['line_status'] == 'no_code' and r['query']['statement'] is None
    # A line with code and no IR (line 83, `def main():`, host code).
    code, out, _ = run('bind', ATTN, '--source', 'attention_fwd.py:83')
    assert code == 1 and 'no IR line is bound to' in out, out


@test
def shared_helper_code_is_reported():
    # attn_fwd.sass_gi has no inline frames; attn_fwd.ptx shows line 31
    # (tl.dot in _attn_inner) under both `@[ attention_fwd.py:73:41 ]` (.loc
    # at 169, 285) and `@[ attention_fwd.py:77:41 ]` (595), so the SASS under
    # `//## ... line 31` (sass_gi:123-124, USHF.L.U32 UR11, UR10, 0x1, URZ)
    # belongs to neither call alone.
    r = run_json('bind', ATTN, '--source', 'attention_fwd.py:71')
    (k,) = r['kernels']
    sh = k['shared']['sass']
    assert [os.path.basename(s['file']) + ':%d' % s['line'] for s in sh['call_sites']] == \
        ['attention_fwd.py:73', 'attention_fwd.py:77'], sh['call_sites']
    shared = lines(sh['lines'])
    assert 124 in shared and 124 not in lines(k['stages']['sass'])
    assert all(x['kind'] == 'instruction' for x in sh['lines'])
    code, out, _ = run('bind', ATTN, '--source', 'attention_fwd.py:73', '--stage', 'sass')
    assert ('(and %d lines of this helper\'s code are shared by its 2 call sites, '
            'attention_fwd.py:73, attention_fwd.py:77' % len(shared)) in out, out
    assert '--shared lists them' in out
    code, out, _ = run('bind', ATTN, '--source', 'attention_fwd.py:73', '--stage', 'sass',
                       '--shared')
    assert 'listed below' in out
    assert any('USHF.L.U32 UR11, UR10, 0x1, URZ' in l and l.lstrip().startswith('124 ')
               for l in out.split('\n')), out
    # A stage with inline frames has nothing shared; --exact asks for none.
    assert 'ptx' not in k['shared']
    r = run_json('bind', ATTN, '--source', 'attention_fwd.py:73', '--exact')
    assert r['kernels'][0]['shared'] == {}


@test
def approximate_matches_are_marked():
    # attn_fwd.ttgir:121 %qk_100 = ttng.warp_group_dot ... (31:23 <- 73:41)
    # and :200 %qk_102 = ttng.warp_group_dot ... (31:23 <- 77:41) reach the
    # same SASS lines (sass_gi:124 among them), matched on line 31 alone.
    a = run_json('bind', ATTN, '--ir', 'ttgir:121')
    b = run_json('bind', ATTN, '--ir', 'ttgir:200')
    sa, sb = a['stages']['sass'], b['stages']['sass']
    assert lines(sa) == lines(sb) and 124 in lines(sa)
    assert all(x.get('approximate') is True for x in sa + sb)
    # The PTX tells the two calls apart (.loc at 169 and 285 vs 595).
    pa = lines(a['stages']['ptx'])
    assert 169 in pa and 595 not in pa
    assert not any('approximate' in x for x in a['stages']['ptx'])
    code, out, _ = run('bind', ATTN, '--ir', 'ttgir:121', '--stage', 'sass')
    assert 'approximate: matched on the innermost frame only' in out, out
    assert '(approximate)' in out


@test
def kernel_prefix_and_candidates():
    # sample_dumps/attention_fwd has one kernel, attn_fwd.
    r = run_json('bind', ATTN, '--kernel', 'attn', '--ir', 'ttgir:121')
    assert r['kernel']['name'] == 'attn_fwd'
    # compiled_block: "triton_per_" starts [0] ..._view_6 and [1] ..._transpose_0.
    cb = os.path.join(DUMPS, 'compiled_block')
    code, _, err = run('refs', cb, '--kernel', 'triton_per_')
    assert code == 2, code
    assert '--kernel triton_per_ matches 2 kernels' in err, err
    assert '  0  triton_per_fused_add_native_layer_norm_transpose_view_6' in err, err
    assert '  1  triton_per_fused_clone_native_layer_norm_transpose_0' in err, err
    r = run_json('refs', cb, '--kernel', 'triton_per_fused_clone')
    assert [k['name'] for k in r] == ['triton_per_fused_clone_native_layer_norm_transpose_0']


@test
def control_characters_in_names_are_escaped():
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        b = os.path.join(d, 'b')
        shutil.copytree(os.path.join(os.environ['TK_TEST_SAMPLES'], 'vector_add'), b)
        m = os.path.join(b, 'manifest.json')
        with open(m) as f:
            manifest = json.load(f)
        manifest['kernels'][0]['name'] = 'add\x1b]0;pwned\x07_kernel'
        with open(m, 'w') as f:
            json.dump(manifest, f)
        for args in (('info', b), ('refs', b), ('bind', b, '--source', 'vector_add.py:16'),
                     ('bind', b, '--ir', 'ttgir:32'), ('passes', b)):
            code, out, err = run(*args)
            assert '\x1b' not in out and '\x07' not in out and '\x1b' not in err, args
        code, out, _ = run('info', b)
        assert 'add\\x1b]0;pwned\\x07_kernel' in out, out
        # JSON escapes it the JSON way (json-glib writes \u001b).
        code, out, _ = run('info', b, '--json')
        assert '\x1b' not in out and '\\u001b' in out
        assert json.loads(out)['kernels'][0]['name'] == 'add\x1b]0;pwned\x07_kernel'
        code, _, err = run('bind', b, '--kernel', 'nothing\x1b[2J', '--ir', 'ttgir:1')
        assert code == 2 and '\x1b' not in err and 'nothing\\x1b[2J' in err, err


def run_on_terminal(cols, *args):
    """Runs tkview with stdout on a pseudo-terminal COLS wide; its text."""
    import fcntl
    import pty
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 40, cols, 0, 0))
    p = subprocess.Popen([TKVIEW, *args], stdout=slave, stderr=subprocess.PIPE, env=ENV)
    os.close(slave)
    chunks = []
    while True:
        try:
            c = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not c:
            break
        chunks.append(c)
    p.wait(timeout=300)
    os.close(master)
    return p.returncode, b''.join(chunks).decode('utf-8', 'replace').replace('\r\n', '\n')


@test
def bind_lines_limits_each_stage_when_piped():
    # add_kernel.ttgir lines 29-34 are what vector_add.py:16 became (above):
    # --lines 2 prints 29 and 30 and says four more.
    code, out, _ = run('bind', VA, '--source', 'vector_add.py:16', '--stage', 'ttgir',
                       '--lines', '2')
    assert code == 0 and '(4 more ttgir lines' in out, out
    assert '    29  ' in out and '    30  ' in out and '    31  ' not in out, out


@test
def terminal_output_fits_the_terminal():
    # On a 60-column terminal: no line past 60 columns, cut lines end in
    # "\u2026", the per-stage counts come before the first IR line, and a
    # stack shared by a run of lines is printed once ("from ...").
    code, out = run_on_terminal(60, 'bind', VA, '--source', 'vector_add.py:16')
    assert code == 0, out
    rows = out.splitlines()
    assert all(len(r) <= 60 for r in rows), [r for r in rows if len(r) > 60]
    assert any(r.endswith('\u2026') for r in rows), out
    first_ir = next(i for i, r in enumerate(rows) if r.startswith('        '))
    assert any('ttgir: 4 instructions' in r for r in rows[:first_ir]), out
    froms = [r for r in rows if r.lstrip().startswith('from ')]
    numbered = [r for r in rows if r[:10].strip().isdigit()]
    assert 0 < len(froms) < len(numbered), out
    # --wide: whole lines, as when piped.
    code, out = run_on_terminal(60, 'bind', VA, '--source', 'vector_add.py:16', '--wide')
    assert any(len(r) > 60 for r in out.splitlines()) and '\u2026' not in out
    for args in (('passes', VA), ('hot', VA)):
        code, out = run_on_terminal(100, *args)
        assert code == 0 and all(len(r) <= 100 for r in out.splitlines()), args


sys.exit(finish())
