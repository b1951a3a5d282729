#!/usr/bin/env python3
"""n / p in the viewer move the current mark, on screen or not, and a group of
hits lands centred; in pass mode they step through the changes, each marked
and centred.  Under Xvfb, the keys pressed as GTK handles them (app.test-key).

The binding answers themselves are tested in test_viewer_bind; here the hits
are the IR pane's as the viewer holds them, and what is checked is where the
current mark and the view go.  persistent_tma_matmul.py:36
`a = a_desc.load([offs_am, offs_k])` binds in LLVM IR to lines 229-235 (the
TMA descriptor load's address arithmetic and `nvvm.cp.async.bulk.tensor`
setup), then 271-276, then further down: a group of 7 lines, a gap of 36
lines, a group of 6.

Usage: test_viewer_navigation.py TKVIEW-VIEWER-TEST TKVIEW   (TK_TEST_DUMPS: the dumps)
"""
import os
import sys
import time

from viewer_harness import Session, test, tap, skip_all, missing_tools, artefact_dir

VIEWER = sys.argv[1]
DUMPS = os.environ['TK_TEST_DUMPS']
PTM = os.path.join(DUMPS, 'persistent_tma_matmul')
VA = os.path.join(DUMPS, 'vector_add')

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))

S = Session()
viewer = S.start([VIEWER, PTM])
S.wait_registered(viewer)
S.wait_window(0)


def primary():
    return S.state()['windows'][0]['bind']['primary']


def settled(pred, what, timeout=120):
    """PRED(state) once GtkTextView has measured its lines (idle time)."""
    deadline = time.time() + timeout
    while True:
        p = primary()
        if pred(p):
            return p
        if time.time() > deadline:
            raise AssertionError('%s: %s' % (what, {k: p[k] for k in (
                'current', 'top_line', 'center_line', 'match_text')}))
        time.sleep(0.1)


def group_centred(first, last):
    """The view's middle line is the middle of lines FIRST..LAST."""
    mid = (first + last) / 2
    return lambda p: abs(p['center_line'] - mid) <= 1 and p['top_line'] <= first


@test
def a_selection_lands_with_its_group_of_hits_centred():
    S.activate('bind-view.stage', "<'llir'>", window=1)
    S.activate('select-source-location', "<('persistent_tma_matmul.py', uint32 36)>", window=1)
    p = settled(lambda p: p['current'] == [229], 'the first hit is current')
    assert p['matches'][:13] == list(range(229, 236)) + list(range(271, 277)), p['matches'][:13]
    settled(group_centred(229, 235), 'lines 229-235 centred')


@test
def n_moves_the_mark_to_a_hit_on_screen_without_scrolling():
    before = settled(group_centred(229, 235), 'lines 229-235 centred')
    for want in range(230, 236):
        S.key('n')
        p = primary()
        assert p['current'] == [want], (want, p['current'])
        assert p['match_text'] == '%d of %d' % (want - 228, len(p['matches'])), p['match_text']
        assert p['top_line'] == before['top_line'], (p['top_line'], before['top_line'])


@test
def n_to_a_hit_off_screen_centres_its_group():
    S.key('n')
    p = settled(lambda p: p['current'] == [271], 'n went to 271')
    settled(group_centred(271, 276), 'lines 271-276 centred')


@test
def p_goes_back_and_centres_the_group_it_ends():
    S.key('p')
    settled(lambda p: p['current'] == [235], 'p went back to 235')
    settled(group_centred(229, 235), 'lines 229-235 centred again')


@test
def n_is_typed_not_taken_in_a_text_entry():
    S.activate('focus-kernel-filter', window=1)
    S.key('n')
    assert primary()['current'] == [235]
    # back to the code: the key steps again
    S.activate('bind-view.select-ir-line', "<('llir', uint32 235)>", window=1)
    S.activate('select-source-location', "<('persistent_tma_matmul.py', uint32 36)>", window=1)
    settled(lambda p: p['current'] == [229], 'selected again')


@test
def screenshot_of_a_centred_group():
    S.key('n')
    path = os.path.join(artefact_dir(), 'viewer-navigation.png')
    w, h = S.screenshot(path, window=1)
    print('# screenshot %s (%dx%d)' % (path, w, h))
    assert w >= 1000 and h >= 600


@test
def quits_cleanly():
    rc = S.quit(viewer)
    assert rc == 0, (rc, S.log(viewer)[-2000:])


# ---- pass mode: vector_add's ConvertTritonGPUToLLVM ------------------------------

V2 = S.start([VIEWER, VA])
S.wait_registered(V2)
S.wait_window(0)


def view_hunk(p, k):
    """The k-th change over the rows shown: ('change', a0, a1, b0, b1), its
    changed rows from the first to the last of its group (tk_diff_changes())."""
    return p['change_blocks'][k]


def centred_on_lead(p, h):
    """The change's rows are marked on both sides and the side that has rows
    in it has their middle in its middle (or is scrolled to an end)."""
    tag, a0, a1, b0, b1 = h
    if p['a']['current_block'] != [a0 + 1, a1 - a0] or p['b']['current_block'] != [b0 + 1, b1 - b0]:
        return False
    side, first, last = ('a', a0 + 1, a1) if a1 > a0 else ('b', b0 + 1, b1)
    s = p[side]
    at_end = s['scroll'] <= 0.5 or s['scroll'] >= s['scroll_max'] - 0.5
    return abs(s['center_row'] - (first + last) / 2) <= 1 or at_end


@test
def pass_mode_n_and_p_step_through_changes_marked_and_centred():
    S.activate('mode', "<'passes'>", window=1)
    p = S.wait_passes()
    # stderr.txt:6020 `; *** IR Dump After TailCallElimPass on add_kernel ***`: the
    # function of LLVM IR marked `tail call` in seven places far apart (+20 -20), seven
    # changes over its 140 rows as `tkview diff --pass` groups them ("@@ -1,7", "@@
    # -16,7", ..., "@@ -126,11").  (ConvertTritonGPUToLLVM rewrites every line: one
    # change.)
    (i,) = [i for i, e in enumerate(p['entries']) if e['header_line'] == 6020]
    S.activate('pass-view.select-pass', "<'%d'>" % i, window=1)
    p = S.wait_passes()
    assert p['changes'] == 7, p['changes']
    deadline = time.time() + 120
    while S.passes()['change_index'] != 0:
        assert time.time() < deadline
        time.sleep(0.05)
    last = p['changes'] - 1
    # on, back, round from the first to the last and from the last to the first
    for k, key in ((1, 'n'), (0, 'p'), (last, 'p'), (0, 'n')):
        S.key(key)
        deadline = time.time() + 120
        while True:
            p = S.passes()
            if p['change_index'] == k and centred_on_lead(p, view_hunk(p, k)):
                break
            assert time.time() < deadline, (k, p['change_index'], view_hunk(p, k),
                                            p['a']['current_block'], p['b']['current_block'],
                                            p['a']['center_row'], p['b']['center_row'])
            time.sleep(0.1)
        assert p['change_text'] == 'change %d of %d' % (k + 1, p['changes']), p['change_text']
    path = os.path.join(artefact_dir(), 'viewer-pass-change.png')
    S.screenshot(path, window=1)
    print('# screenshot %s' % path)


@test
def quits_cleanly_too():
    rc = S.quit(V2)
    assert rc == 0, (rc, S.log(V2)[-2000:])
    bad = [line for line in S.log(V2).splitlines() if 'WARNING' in line or 'CRITICAL' in line]
    assert not bad, bad


S.close()
sys.exit(tap())
