#!/usr/bin/env python3
"""Zoom and wrap in the viewer under Xvfb, on a real capture
(sample_dumps/matmul_profile: its source pane has a cost column, its TTGIR
lines run past a 1280 px window's panes):
  - Ctrl+plus, Ctrl+minus and Ctrl+0, pressed as keys, change the font of
    every code pane, which the settings keep (the memory backend here);
  - Alt+Z wraps long lines in every code pane and unwraps them;
  - at two zoom levels, wrapped and not, each line number and each cost
    figure stands on the first row of its own line (test-state's
    "geometry"."code": where the gutters drew their text beside where the
    text view has the line), and no number is drawn over the next.
Each state is kept as a picture (TKV_TEST_ARTEFACTS).

Usage: test_viewer_zoom.py TKVIEW-VIEWER-TEST TKVIEW
  (TK_TEST_SAMPLES: sample_dumps)
"""
import os
import sys
import time

from viewer_harness import Session, test, tap, skip_all, missing_tools, artefact_dir

VIEWER = sys.argv[1]
SAMPLES = os.environ.get('TK_TEST_SAMPLES') or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'sample_dumps')

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))

S = Session()
SHOTS = artefact_dir()
v = S.start([VIEWER, os.path.join(SAMPLES, 'matmul_profile')])
S.wait_registered(v)
WID = S.wait_window(0)['id']


def win():
    return S.state()['windows'][0]


def code(want=None, timeout=120):
    """geometry.code once WANT holds and it reads the same twice."""
    last = None
    deadline = time.time() + timeout
    while time.time() < deadline:
        w = win()
        c = w.get('geometry', {}).get('code')
        if c is not None and (want is None or want(c)) and c == last:
            return c
        last = c
        time.sleep(0.2)
    raise RuntimeError('never: %s' % (last,))


def bind_views(c):
    return [x for x in c['views'] if x['in'] == 'TkvBindView']


def pt(view, size):
    """VIEW's font is SIZE points (to the nearest tenth)."""
    return abs(view['font_pt'] - size) < 0.1


def misplaced(view, key):
    """The lines of VIEW whose KEY gutter text is not on the line's first
    row, or overlaps the next line's."""
    drawn = view.get(key, [])
    # a hidden (folded location) line has no height: a number drawn for it
    # is drawn over the next line's
    bad = ['%s of hidden line %d drawn' % (key, d[0]) for d in drawn if d[4] <= 1]
    drawn = [d for d in drawn if d[4] > 1]
    if not drawn:
        return bad
    # one row: the height of a line that is not wrapped (the shortest)
    row = min(d[4] for d in drawn)
    for line, ty, th, ly, lh in drawn:
        # centred on the first row: its top near the line's top (the
        # text and the row differ in height by a few pixels at most; a
        # number centred on a wrapped line of two rows is half a row low)
        if abs(ty - ly) > 3 + abs(row - th) / 2:
            bad.append('%s of line %d at %d..%d, its first row %d..%d' % (key, line, ty, ty + th, ly, ly + row))
    for a, b in zip(drawn, drawn[1:]):
        if b[1] < a[1] + a[2] - 2:
            bad.append('%s of lines %d and %d drawn over each other' % (key, a[0], b[0]))
    return bad


def aligned(c, what):
    bad = []
    for i, view in enumerate(bind_views(c)):
        for key in ('numbers', 'heat'):
            bad += ['pane %d: %s' % (i, b) for b in misplaced(view, key)]
    assert not bad, what + ': ' + '; '.join(bad[:6])


def shot(name):
    time.sleep(0.3)
    S.screenshot(os.path.join(SHOTS, 'viewer-zoom-%s.png' % name), window=WID)


S.activate('test-resize', "<(uint32 %d, 1280, 800)>" % WID)
S.set_state('show-second-view', '<true>', window=WID)
S.activate('bind-view.second-stage', "<'sass'>", window=WID)
S.activate('select-source-location', "<('matmul_profile.py', uint32 54)>", window=WID)


def folded_in_view(view):
    """Lines of VIEW hidden between two drawn line numbers."""
    drawn = view['numbers']
    return any(b[0] - a[0] > 1 for a, b in zip(drawn, drawn[1:]))


# the cost column comes with the profile's cost, loaded on a worker: wait
# for it too (under load it came after the numbers), and for the SASS pane
# to show the selection's lines, among which //## location lines are folded
# (under ASan a steady state before its scroll once had none in view)
c0 = code(lambda c: len(bind_views(c)) == 3 and all(v['numbers'] for v in bind_views(c))
          and any(v['heat'] for v in bind_views(c)) and folded_in_view(bind_views(c)[2]))


@test
def the_default_size_and_no_wrap():
    assert c0['font_size'] == 10 and not c0['wrap'], c0
    assert all(pt(v, 10) and not v['wrap'] for v in bind_views(c0)), [v['font_pt'] for v in bind_views(c0)]
    # the source pane has its cost column drawn: the check below is not empty
    assert any(v['heat'] for v in bind_views(c0)), 'no cost column drawn'
    # SASS's //## location lines are folded: hidden lines in view, whose
    # numbers must not be drawn over their neighbours'
    assert folded_in_view(bind_views(c0)[2]), 'no folded line in view'
    aligned(c0, 'at 10 pt')
    shot('10pt')


@test
def ctrl_plus_makes_every_code_pane_larger():
    for _ in range(4):
        S.key('<Control>plus', window=WID)
    c = code(lambda c: c['font_size'] == 14 and all(pt(v, 14) for v in bind_views(c)))
    assert c['remembered_font_size'] in (14, -1), c['remembered_font_size']
    row0 = min(v['row'] for v in bind_views(c0))
    assert min(v['row'] for v in bind_views(c)) > row0, 'rows no taller at 14 pt'
    # fewer characters across: the text is larger, the panes the same
    assert sum(v['chars'] for v in bind_views(c)) < sum(v['chars'] for v in bind_views(c0))
    aligned(c, 'at 14 pt')
    shot('14pt')


@test
def alt_z_wraps_long_lines_and_the_gutters_follow():
    S.key('<Alt>z', window=WID)
    c = code(lambda c: c['wrap'] and all(v['wrap'] for v in bind_views(c)))
    assert c['remembered_wrap'] in (1, -1), c['remembered_wrap']
    # a line of TTGIR or SASS wraps at 14 pt in a 1280 px window: the test
    # has a line taller than a row to check the gutters against
    wrapped = [d for v in bind_views(c) for d in v['numbers']
               if d[4] >= 2 * min(x[4] for x in v['numbers'] if x[4] > 1)]
    assert wrapped, 'no line wrapped'
    aligned(c, 'wrapped at 14 pt')
    shot('14pt-wrapped')


@test
def ctrl_minus_smaller_still_wrapped_and_aligned():
    for _ in range(6):
        S.key('<Control>minus', window=WID)
    c = code(lambda c: c['font_size'] == 8 and all(pt(v, 8) for v in bind_views(c)))
    assert all(v['wrap'] for v in bind_views(c))
    aligned(c, 'wrapped at 8 pt')
    shot('8pt-wrapped')


@test
def ctrl_0_and_alt_z_again_restore_the_default():
    S.key('<Control>0', window=WID)
    S.key('<Alt>z', window=WID)
    c = code(lambda c: c['font_size'] == 10 and not c['wrap'] and
             all(pt(v, 10) and not v['wrap'] for v in bind_views(c)))
    aligned(c, 'back at 10 pt')


S.quit(v)
S.close()
sys.exit(tap())
