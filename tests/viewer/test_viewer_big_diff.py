#!/usr/bin/env python3
"""A pass diff too big to show whole, in the viewer's pass mode, under Xvfb.

A pass that rewrites a 2 GB module (the LLVM dialect of a big tile) cannot
be put in a text view; the view shows its changes up to a budget, says what
it left out, and how to see it all.  The budget is made small here
(TKV_PASS_DIFF_BUDGET=200 lines) so that vector_add's ConvertTritonGPUToLLVM
is too big: mlir_passes.txt:4756 `IR Dump Before ConvertTritonGPUToLLVM`
(TTGIR, lines 4757-4829) against the next dump, 4830 `IR Dump Before
Canonicalizer` (the LLVM dialect, lines 4831-5624).  `tkview passes` counts
+752 -30 for it, and `tkview diff --pass` makes it one group: the TTGIR
file's two layout lines go (`#blocked = #ttg.blocked<{sizePerThread = [4]`,
`#blocked1 = ...`), its `module attributes {...}` line stays, the 28 lines
of the function are replaced by the 752 lines of the LLVM function, and
the two closing lines stay.  In unified diff order that is 2 removed, 1
context, 28 removed, 752 added, 2 context: 785 lines.  The first 200 are
shown: 2 + 1 + 28 = 31 rows on the left, the context line and 169 added
lines on the right; 583 added lines and 2 context lines are left out.

Usage: test_viewer_big_diff.py TKVIEW-VIEWER-TEST TKVIEW   (TK_TEST_DUMPS: the dumps)
"""
import os
import sys

os.environ['TKV_PASS_DIFF_BUDGET'] = '200'

from viewer_harness import Session, test, tap, skip_all, missing_tools  # noqa: E402

VIEWER = sys.argv[1]
DUMPS = os.environ['TK_TEST_DUMPS']
VA = os.path.join(DUMPS, 'vector_add')

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))

S = Session()
viewer = S.start([VIEWER, VA])
S.wait_registered(viewer)
S.wait_window(0)


def select_header(line):
    p = S.passes()
    (i,) = [i for i, e in enumerate(p['entries']) if e['header_line'] == line]
    S.activate('pass-view.select-pass', "<'%d'>" % i, window=1)
    p = S.wait_passes()
    assert p['selected'] == str(i), (p['selected'], i)
    return p


@test
def pass_mode_opens():
    S.activate('mode', "<'passes'>", window=1)
    p = S.wait_passes()
    assert p['state'] == 'ready', p


@test
def a_diff_over_the_budget_is_cut_and_says_so():
    p = select_header(4756)
    assert (p['added'], p['removed']) == (752, 30), (p['added'], p['removed'])
    cut = p['cut']
    assert cut['cut'] and cut['lines_shown'] == 200, cut
    # 785 unified lines: one line of context, the 30 removed and 752 added
    # lines (their replaced block aligned by likeness, removed lines among
    # the added ones), two lines of context; 200 shown.
    assert cut['lines_left'] == 585, cut
    assert cut['added_left'] + cut['removed_left'] == 583, cut
    removed_shown, added_shown = 30 - cut['removed_left'], 752 - cut['added_left']
    assert 1 + removed_shown + added_shown == 200, cut
    a, b = p['a'], p['b']
    # the context row, the rows shown on each side and the note saying where it was cut
    assert a['rows'] == removed_shown + 2 and b['rows'] == added_shown + 2, (a['rows'], b['rows'], cut)
    # mlir_passes.txt:4757 `#blocked = #ttg.blocked<{sizePerThread = [4], ...`
    assert a['text']['1'].startswith('#blocked = #ttg.blocked<{sizePerThread = [4]'), a['text']
    assert a['delete'][:2] == [1, 2], a['delete']
    # The last row of both sides: what was left out and how to see it.
    hunks = p['view_hunks']
    assert hunks[-1][0] == 'equal' and hunks[-1][2] == a['rows'] and hunks[-1][4] == b['rows'], hunks
    assert '%d of 785 lines shown' % 200 in p['stats_text'], p['stats_text']


@test
def the_cut_note_is_the_last_row():
    p = S.passes()
    # The added rows shown are inserts and replaces; the note row (the last) is none.
    b = p['b']
    shown = 752 - p['cut']['added_left']
    assert b['rows'] not in b['insert'] + b['replace'], b['insert'][-3:]
    assert len(b['insert'] + b['replace']) == shown, (len(b['insert'] + b['replace']), shown)


@test
def a_diff_within_the_budget_is_whole():
    # mlir_passes.txt:1178 `IR Dump Before TritonGPUCoalesce`: +13 -3, a few dozen lines.
    p = select_header(1178)
    assert not p['cut']['cut'], p['cut']
    assert (p['added'], p['removed']) == (13, 3)
    # the rows shown are the diff's, its replaced lines paired by likeness
    assert p['view_hunks'] == p['aligned_hunks'], (p['view_hunks'], p['aligned_hunks'])


@test
def quits_cleanly():
    rc = S.quit(viewer)
    log = S.log(viewer)
    assert rc == 0 and 'CRITICAL' not in log, (rc, log)


S.close()
sys.exit(tap())
