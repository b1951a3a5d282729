#!/usr/bin/env python3
"""Ctrl+F in the viewer: one find bar over every pane of the view shown, under
Xvfb.

The binding view on persistent_tma_matmul with LLVM IR beside PTX, then the
pass view on vector_add's TritonGPUCoalesce.  The find bar is driven through
bind-view.find-text / pass-view.find-text (what typing in it does) and
find-next / find-previous (Enter and Shift+Enter in the bar, Ctrl+G and
Ctrl+Shift+G anywhere); what it found is read back from its state, and the
expected hits are counted here in the dump files themselves.

Usage: test_viewer_find.py TKVIEW-VIEWER-TEST TKVIEW   (TK_TEST_DUMPS: the dumps)
"""
import glob
import os
import re
import sys
import time

from viewer_harness import Session, test, tap, skip_all, missing_tools, artefact_dir

VIEWER = sys.argv[1]
DUMPS = os.environ['TK_TEST_DUMPS']
PTM = os.path.join(DUMPS, 'persistent_tma_matmul')
VA = os.path.join(DUMPS, 'vector_add')
(KDIR,) = glob.glob(os.path.join(PTM, 'kernel_dump', '*'))
LLIR = open(os.path.join(KDIR, 'matmul_tma_persistent.llir')).read().split('\n')
PTX = open(os.path.join(KDIR, 'matmul_tma_persistent.ptx')).read().split('\n')

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))


def hits(lines, pattern, flags=0):
    """(line, start) of every match of PATTERN in LINES, 1-based lines."""
    return [(i + 1, m.start()) for i, t in enumerate(lines)
            for m in re.finditer(pattern, t, flags)]


S = Session()
viewer = S.start([VIEWER, PTM])
S.wait_registered(viewer)
S.wait_window(0)


def bind():
    return S.state()['windows'][0]['bind']


def find_text(text, regex=False, case=False, view='bind-view'):
    S.activate(view + '.find-text', "<('%s', %s, %s)>" % (
        text.replace('\\', '\\\\'), 'true' if regex else 'false', 'true' if case else 'false'),
        window=1)


def centred(pane, line, timeout=120):
    """Until LINE is in the middle of PANE (as near as the buffer's ends let
    it), the view having measured its lines."""
    deadline = time.time() + timeout
    while True:
        w = bind()
        p = w[pane]
        near_top = p['top_line'] == 1 and p['center_line'] > line
        if abs(p['center_line'] - line) <= 1 or near_top:
            return w
        assert time.time() < deadline, (pane, line, p['top_line'], p['center_line'])
        time.sleep(0.1)


# persistent_tma_matmul's LLVM IR has 8 `wgmma.mma_async` (inside the inline
# assembly strings of lines 511, 578, ..., 976, far past column 256), its PTX 8
# (lines 877-908): grep -n -F wgmma.mma_async.
MMA_LLIR = hits(LLIR, re.escape('wgmma.mma_async'))
MMA_PTX = hits(PTX, re.escape('wgmma.mma_async'))


@test
def one_find_counts_the_hits_of_every_pane():
    assert [l for l, _ in MMA_LLIR] == [511, 578, 645, 712, 778, 844, 910, 976], MMA_LLIR
    assert [l for l, _ in MMA_PTX] == [877, 882, 887, 892, 896, 900, 904, 908], MMA_PTX
    S.activate('bind-view.stage', "<'llir'>", window=1)
    S.set_state('show-second-view', '<true>')
    S.activate('bind-view.second-stage', "<'ptx'>", window=1)
    find_text('wgmma.mma_async')
    f = bind()['find']
    print('# find over source + LLVM IR (%d lines) + PTX (%d lines): %.2f ms'
          % (len(LLIR), len(PTX), f['last_ms']))
    assert f['open'] and f['text'] == 'wgmma.mma_async', f
    assert f['panes'] == {'source': 0, 'primary': 8, 'secondary': 8}, f['panes']
    assert f['total'] == 16, f
    # from the cursor of the focused pane (the LLVM IR, on its first
    # instruction): its first hit
    assert f['current'] == {'pane': 'primary', 'line': 511, 'start': MMA_LLIR[0][1],
                            'end': MMA_LLIR[0][1] + 15}, f['current']
    assert f['label'] == '1 of 16', f['label']


@test
def the_hit_is_centred_and_shown_whole_sideways():
    w = centred('primary', 511)
    p = w['primary']
    # its line was folded at 256 characters: shown whole, scrolled to the hit
    assert 511 not in p['folded'], p['folded'][:20]
    assert p['hscroll'] > 0, p['hscroll']


@test
def next_steps_pane_after_pane_and_round():
    seen = [('primary', 511)]
    for _ in range(16):
        S.activate('bind-view.find-next', window=1)
        c = bind()['find']['current']
        seen.append((c['pane'], c['line']))
    assert seen == ([('primary', l) for l, _ in MMA_LLIR] + [('secondary', l) for l, _ in MMA_PTX]
                    + [('primary', 511)]), seen
    # the PTX hits come to the middle of their pane too
    S.key('<Control><Shift>g')  # previous: the last PTX hit
    f = bind()['find']
    assert (f['current']['pane'], f['current']['line'], f['label']) == ('secondary', 908, '16 of 16')
    centred('secondary', 908)


@test
def a_regular_expression_over_every_line():
    pattern = r'wgmma\.(fence|commit_group|wait_group)'
    find_text(pattern, regex=True)
    f = bind()['find']
    # llir: fence 508 1931, commit_group 1041 1934, wait_group 1042 1200 1882;
    # ptx: fence 872, commit_group 910, wait_group 922 972 1210
    assert f['panes']['primary'] == len(hits(LLIR, pattern)) == 7, f['panes']
    assert f['panes']['secondary'] == len(hits(PTX, pattern)) == 5, f['panes']
    # a hit at the far end of the LLVM IR, found and centred
    for _ in range(12):
        c = bind()['find']['current']
        if c['pane'] == 'primary' and c['line'] == 1934:
            break
        S.activate('bind-view.find-next', window=1)
    assert bind()['find']['current']['line'] == 1934
    centred('primary', 1934)


@test
def case_and_bad_expressions():
    find_text('WGMMA.FENCE', case=True)
    f = bind()['find']
    assert f['total'] == 0 and f['label'] == 'no match', f
    find_text('WGMMA.FENCE')
    assert bind()['find']['total'] == 3
    find_text('wgmma(', regex=True)
    f = bind()['find']
    assert f['total'] == 0 and f['label'] == 'not a regular expression', f


@test
def a_stage_switch_searches_the_new_stage():
    find_text('wgmma.mma_async')
    S.activate('bind-view.second-stage', "<'ttgir'>", window=1)
    f = bind()['find']
    # TTGIR says ttng.warp_group_dot, never wgmma
    assert f['panes'] == {'source': 0, 'primary': 8, 'secondary': 0}, f['panes']
    S.activate('bind-view.second-stage', "<'ptx'>", window=1)
    assert bind()['find']['panes']['secondary'] == 8


@test
def screenshot_of_find():
    find_text('wgmma.mma_async')
    S.activate('bind-view.find-next', window=1)
    centred('primary', 578)
    path = os.path.join(artefact_dir(), 'viewer-find.png')
    w, h = S.screenshot(path, window=1)
    print('# screenshot %s (%dx%d)' % (path, w, h))
    assert w >= 1000 and h >= 600


@test
def quits_cleanly():
    rc = S.quit(viewer)
    assert rc == 0, (rc, S.log(viewer)[-2000:])


# ---- pass mode: both sides of vector_add's TritonGPUCoalesce -------------------------

V2 = S.start([VIEWER, VA])
S.wait_registered(V2)
S.wait_window(0)
PASSES = open(os.path.join(VA, 'mlir_passes.txt')).read().split('\n')


def section(first):
    """The module dumped after header line FIRST (1-based) of mlir_passes.txt,
    up to the next header, without its location lines (the diff leaves
    them out)."""
    out = []
    for t in PASSES[first:]:
        if t.startswith('// -----// IR Dump'):
            break
        if not t.startswith('#loc'):
            out.append(t)
    return out


@test
def pass_mode_finds_in_both_sides():
    S.activate('mode', "<'passes'>", window=1)
    p = S.wait_passes()
    # mlir_passes.txt:1178 `IR Dump Before TritonGPUCoalesce`, its output at 1251
    (i,) = [i for i, e in enumerate(p['entries']) if e['header_line'] == 1178]
    S.activate('pass-view.select-pass', "<'%d'>" % i, window=1)
    p = S.wait_passes()
    # the source pane below the diff shows vector_add.py once a line of it
    # is asked for (12: `x = tl.load(x_ptr + offsets, mask=mask)`)
    S.activate('select-source-location', "<('vector_add.py', uint32 12)>", window=1)
    # tt.load in the IR, tl.load in the source
    pattern = r't[tl]\.load'
    find_text(pattern, regex=True, view='pass-view')
    f = S.passes()['find']
    before, after = section(1178), section(1251)
    assert f['panes']['a'] == len(hits(before, pattern, re.I)) == 2, f['panes']
    assert f['panes']['b'] == len(hits(after, pattern, re.I)) == 2, f['panes']
    assert f['total'] == f['panes']['a'] + f['panes']['b'] + f['panes']['source'], f
    # vector_add.py's tl.load lines, 12 and 13, in the source pane (grep -n tl.load)
    assert f['panes']['source'] == 2, f['panes']
    # from the focused side's cursor (A, at its top): A's hits, B's, the source's
    order = []
    for _ in range(f['total']):
        c = S.passes()['find']['current']
        order.append(c['pane'])
        S.activate('pass-view.find-next', window=1)
    assert order == ['a', 'a', 'b', 'b', 'source', 'source'], order
    assert S.passes()['find']['current']['pane'] == 'a'  # round again
    path = os.path.join(artefact_dir(), 'viewer-find-passes.png')
    S.screenshot(path, window=1)
    print('# screenshot %s' % path)


@test
def pass_mode_quits_cleanly():
    rc = S.quit(V2)
    assert rc == 0, (rc, S.log(V2)[-2000:])
    bad = [line for line in S.log(V2).splitlines() if 'WARNING' in line or 'CRITICAL' in line]
    assert not bad, bad


S.close()
sys.exit(tap())
