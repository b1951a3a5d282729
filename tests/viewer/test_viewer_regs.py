#!/usr/bin/env python3
"""The viewer's register strip along the SASS, the peak's source mark,
configs mode and what sets a compile apart in the title, under Xvfb, on
the raw H200 captures sample_dumps/raw/diag_remarks and autotune_matmul
(their kernel_dump, cache and src folders unpacked here).

Read by hand from spill_rows_kernel.sass_lr (`nvdisasm --print-life-ranges
--life-range-mode count`, GPR is the first cell):
  /*0000*/ LDC R1, c[0x0][0x28] ;            // |   1   |
  /*11d0*/ IMAD R15, R28, UR4, R10.reuse ;   // |  53   |        |   3    |
  /*6410*/ MUFU.EX2 R59, R54 ;               // |  62   |   6    |   2    |
62 is the file's largest GPR cell, first at 0x6410, which
spill_rows_kernel.sass_gi puts under diag_remarks.py line 39; the cubin has
64 registers.  autotune_matmul's autotune_timings.json: the smallest median
(0.029888 ms) is BLOCK_N=256, 8 warps, 3 stages, the config stdout.txt's
"best config selected" names.  The same numbers as the report's
(tests/html/test_regs.mjs, test_configs.mjs).

Usage: test_viewer_regs.py TKVIEW-VIEWER-TEST TKVIEW   (TK_TEST_SAMPLES)
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from viewer_harness import Session, test, tap, skip_all, missing_tools, artefact_dir

VIEWER, TKVIEW = sys.argv[1], sys.argv[2]
RAW = os.path.join(os.environ['TK_TEST_SAMPLES'], 'raw')

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))

TMP = tempfile.mkdtemp(prefix='viewer-regs-')


def unpack(name, *extra):
    subprocess.run(['tar', 'xJf', os.path.join(RAW, name + '.tar.xz'), '-C', TMP,
                    '--wildcards', '*/kernel_dump/*', '*/cache/*', '*/src/*', *extra],
                   check=True)
    return os.path.join(TMP, name)


DR = unpack('diag_remarks')
AT = unpack('autotune_matmul', 'autotune_matmul/autotune_timings.json')
SPILL_GI = [os.path.join(r, f) for r, _, fs in os.walk(os.path.join(DR, 'kernel_dump'))
            for f in fs if f == 'spill_rows_kernel.sass_gi'][0]
with open(SPILL_GI, encoding='utf-8') as f:
    GI = f.read().split('\n')


def sass_line(offset):
    """The line of SPILL_GI holding the instruction at OFFSET ('11d0')."""
    return [i + 1 for i, l in enumerate(GI) if '/*%s*/' % offset in l][0]


# The nvdisasm the viewer may run: a fake printing spill_rows_kernel's real
# .sass_lr (kept aside here) for exactly the arguments the library gives,
# refusing anything else; tkview's cache is this test's.
LR_COPY = os.path.join(TMP, 'spill_rows_kernel.sass_lr.real')
with open(SPILL_GI[:-len('.sass_gi')] + '.sass_lr', 'rb') as f, open(LR_COPY, 'wb') as g:
    g.write(f.read())
FAKE_NVDISASM = os.path.join(TMP, 'nvdisasm-fake')
with open(FAKE_NVDISASM, 'w') as f:
    f.write('#!/bin/sh\n'
            'if [ "$1 $2 $3 $4" = "--print-life-ranges --life-range-mode count -c" ]; then\n'
            '  case "$5" in *spill_rows_kernel.cubin) exec cat "%s";; esac\n'
            'fi\n'
            'echo "fake nvdisasm: not these arguments: $*" >&2; exit 3\n' % LR_COPY)
os.chmod(FAKE_NVDISASM, 0o755)

S = Session()
S.env.update(TKVIEW_NVDISASM=FAKE_NVDISASM, XDG_CACHE_HOME=os.path.join(TMP, 'cache'))
viewer = S.start([VIEWER, DR])
S.wait_registered(viewer)
S.wait_window(0)


def win():
    return S.state()['windows'][0]


@test
def strip_counts_are_the_sass_lr_cells():
    S.activate('select-kernel', "<'spill_rows_kernel'>", window=1)
    S.activate('bind-view.stage', "<'sass'>", window=1)
    r = win()['regs']
    assert r['shown'], r
    counts = r['counts']
    assert len(counts) == len(GI) or len(counts) == len(GI) - 1, (len(counts), len(GI))
    for off, gpr in (('0000', 1), ('11d0', 53), ('6410', 62)):
        assert counts[sass_line(off) - 1] == gpr, (off, counts[sass_line(off) - 1], gpr)
    assert r['peak'] == 62 and r['peak_line'] == sass_line('6410'), r['peak']
    assert r['caption'].startswith('live registers: peak 62 at SASS line %d (diag_remarks.py:39)'
                                   % sass_line('6410')), r['caption']
    assert r['caption'].endswith('ptxas 64'), r['caption']
    # drawn once on screen: a column per pixel
    deadline = time.time() + 60
    while r['columns'] == 0 and time.time() < deadline:
        time.sleep(0.2)
        r = win()['regs']
    assert r['columns'] > 100, r['columns']
    # a label is no instruction
    labels = [i + 1 for i, l in enumerate(GI) if l.strip().startswith('.L_x_')]
    assert all(counts[n - 1] == 0 for n in labels if n <= len(counts)), labels[:3]


@test
def peak_source_line_is_marked():
    r = win()['regs']
    assert r['source_peak']['line'] == 39, r['source_peak']
    assert r['source_peak']['file'].endswith('diag_remarks.py'), r['source_peak']
    assert r['source_marks'] == [39], r['source_marks']


@test
def cursor_follows_the_selected_instruction():
    peak = sass_line('6410')
    S.activate('bind-view.select-ir-line', "<('sass', uint32 %d)>" % peak, window=1)
    w = win()
    assert w['regs']['cursor'] == peak, w['regs']['cursor']
    S.screenshot(os.path.join(artefact_dir(), 'viewer-regs-strip.png'))
    S.activate('bind-view.stage', "<'ttgir'>", window=1)
    assert not win()['regs']['shown']


@test
def no_life_ranges_says_why():
    # diag_remarks' serialized_dot_kernel has its .sass_lr too; a kernel
    # without one is vector_add of sample_dumps (no .sass_lr in a bundle
    # made before issue 30): the strip only says why
    va = os.path.join(os.environ['TK_TEST_SAMPLES'], 'vector_add')
    S.run([VIEWER, va], timeout=300)
    w = S.wait_window(1)
    S.activate('bind-view.stage', "<'sass'>", window=2)
    r = S.state()['windows'][1]['regs']
    assert r['shown'], r
    # (with an nvdisasm at hand tkview would make one: then it shows a peak)
    assert r['caption'].startswith('live registers: '), r['caption']
    if 'unknown' in r['caption']:
        assert 'sass_lr' in r['caption'], r['caption']
    del w


@test
def life_ranges_made_with_nvdisasm_for_a_folder_without():
    """spill_rows_kernel's dump folder without its .sass_lr (read-only):
    the viewer has the fake nvdisasm make it, into the cache, never into
    the folder, and the strip shows the same cells."""
    import shutil
    folder = os.path.join(TMP, 'nolr')
    shutil.copytree(os.path.dirname(SPILL_GI), folder)
    os.remove(os.path.join(folder, 'spill_rows_kernel.sass_lr'))
    os.chmod(folder, 0o555)
    before = sorted(os.listdir(folder))
    S.run([VIEWER, folder], timeout=300)
    S.wait_window(2)
    S.activate('select-kernel', "<'spill_rows_kernel'>", window=3)
    S.activate('bind-view.stage', "<'sass'>", window=3)
    r = S.state()['windows'][2]['regs']
    assert r['shown'] and r['peak'] == 62, r.get('caption')
    assert r['counts'][sass_line('11d0') - 1] == 53
    assert sorted(os.listdir(folder)) == before
    # the cache's one file (its stat/ folder remembers cubin sums)
    made = [f for f in os.listdir(os.path.join(TMP, 'cache', 'tkview', 'sass_lr'))
            if f != 'stat']
    assert len(made) == 1 and made[0].endswith('.sass_lr'), made
    os.chmod(folder, 0o755)


S2 = Session()
viewer2 = S2.start([VIEWER, AT])
S2.wait_registered(viewer2)
S2.wait_window(0)


@test
def configs_mode_is_the_library_table():
    S2.activate('mode', "<'configs'>", window=1)
    # The table comes at once; each row's first divergence from the winner
    # is made on a worker (the cells say so until then).
    deadline = time.time() + 300
    c = S2.state()['windows'][0]['configs']
    while c['comparing'] and time.time() < deadline:
        time.sleep(0.1)
        c = S2.state()['windows'][0]['configs']
    assert not c['comparing'], 'the comparisons never finished'
    (g,) = c['groups']
    assert g['kernel'] == 'autotuned_matmul_kernel', g['kernel']
    assert len(g['rows']) == 5
    win_row = g['rows'][g['winner']]
    assert win_row['winner'] and abs(win_row['ms'] - 0.029888000339269638) < 1e-12, win_row
    for opt in ('num_warps=8', 'num_stages=3', 'BLOCK_N=256'):
        assert opt in win_row['apart'], win_row['apart']
    assert win_row['diverge'] == '(winner)'
    # the matrix the CLI prints (tkview configs --json: the same library call)
    p = subprocess.run([TKVIEW, 'configs', AT, '--json'], stdout=subprocess.PIPE, check=True)
    (cli,) = json.loads(p.stdout)['groups']
    assert [x['hash'] for x in cli['configs']] == [x['hash'] for x in g['rows']]
    # made on the worker, the same as the CLI's (one call there)
    assert [x['first_divergence'] for x in cli['configs']] == [x['diverge'] for x in g['rows']]
    assert len(cli['lines']) == len(g['lines'])
    for want, got in zip(cli['lines'], g['lines']):
        assert (want['file'], want['line']) == (got['file'], got['line'])
        for c_, (n, shown) in enumerate(zip(want['sass'], got['cells'])):
            has = cli['configs'][c_]['sass'] is not None
            assert shown == (str(n) if has else '-'), (got, want)
        # marked where a compile with SASS differs from the winner
        w = g['winner']
        for c_, m in enumerate(got['marked']):
            has = cli['configs'][c_]['sass'] is not None
            assert m == (has and want['sass'][c_] != want['sass'][w]), (got, want)
    S2.screenshot(os.path.join(artefact_dir(), 'viewer-configs.png'))


@test
def title_says_what_sets_the_compile_apart():
    S2.activate('mode', "<'bind'>", window=1)
    for row in S2.state()['windows'][0]['configs']['groups'][0]['rows']:
        S2.activate('select-kernel', "<'%s'>" % row['hash'][:12], window=1)
        t = S2.state()['windows'][0]['title']
        assert t.startswith('autotuned_matmul_kernel %s (' % row['hash'][:8]), t
        assert t.endswith(row['apart'] + ')'), (t, row['apart'])


S.close()
S2.close()
tap()
