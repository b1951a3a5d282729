#!/usr/bin/env python3
"""A pass diff's sides filled by parts (viewer/passes/tkv_pass_view_fill.c),
in the viewer's pass mode, under Xvfb.

At the click a side's buffer holds the text of the rows around its first
change only, its other rows empty lines filled in idle slices: the rows far
from the first change must end up holding their own text under their own
line numbers, and the find bar must reach them.

vector_add's ConvertTritonGPUToLLVM, shown whole: mlir_passes.txt:4756
`IR Dump Before ConvertTritonGPUToLLVM` (TTGIR, lines 4757-4829) against the
next dump, 4830 `IR Dump Before Canonicalizer` (the LLVM dialect, lines
4831-5624).  Its first change is at the top (the TTGIR's `#blocked` layout
lines 4757-4758 go); the LLVM function's end is hundreds of rows below it:
  5566  `    %96 = llvm.inline_asm ... "@$5 st.global.v4.b32 [ $4 + 0 ], ...`
  5587  `    %117 = llvm.inline_asm ... "@$5 st.global.v4.b32 [ $4 + 0 ], ...`
  5588  `    llvm.return loc(#loc18)`
`st.global.v4.b32` is on those two lines only (grep), in neither the TTGIR
nor vector_add.py.  A side's gutter numbers its dump's lines from the one
after its header: file line L of B is line L - 4830, of A L - 4756.

Usage: test_viewer_pass_fill.py TKVIEW-VIEWER-TEST TKVIEW   (TK_TEST_DUMPS: the dumps)
"""
import os
import sys

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


A_HEADER, B_HEADER = 4756, 4830


def row_of(side, file_line):
    """The row of side B showing mlir_passes.txt's FILE_LINE (by its gutter
    number)."""
    rows = [int(r) for r, l in side['dump_line'].items() if l == file_line - B_HEADER]
    assert len(rows) == 1, (file_line, rows)
    return rows[0]


@test
def pass_mode_opens():
    S.activate('mode', "<'passes'>", window=1)
    p = S.wait_passes()
    assert p['state'] == 'ready', p


@test
def rows_far_from_the_first_change_hold_their_text():
    p = S.passes()
    (i,) = [i for i, e in enumerate(p['entries']) if e['header_line'] == 4756]
    S.activate('pass-view.select-pass', "<'%d'>" % i, window=1)
    p = S.wait_passes()  # shown and filled
    assert p['selected'] == str(i) and not p['diff_filling'], p['selected']
    assert not p['cut']['cut'], p['cut']
    a, b = p['a'], p['b']
    # the first change: the TTGIR's two layout lines, removed, rows 1-2
    assert a['text']['1'].startswith('#blocked = #ttg.blocked<{sizePerThread = [4]'), a['text']['1']
    assert a['dump_line']['1'] == 4757 - A_HEADER and a['dump_line']['2'] == 4758 - A_HEADER, \
        a['dump_line']
    ret = row_of(b, 5588)
    assert b['text'][str(ret)] == '    llvm.return loc(#loc18)', b['text'][str(ret)]
    # hundreds of rows below the first change: outside the rows shown first
    assert ret > 500, ret
    for line in (5566, 5587):
        t = b['text'][str(row_of(b, line))]
        assert 'st.global.v4.b32 [ $4 + 0 ]' in t, (line, t)
    # every row of B holds text: none was left empty
    assert all(t.strip() for t in b['text'].values()), \
        [r for r, t in b['text'].items() if not t.strip()][:5]


@test
def find_reaches_rows_outside_the_first_window():
    S.activate('pass-view.find-text', "<('st.global.v4.b32', false, false)>", window=1)
    p = S.passes()
    f = p['find']
    assert f['total'] == 2, f
    b = p['b']
    lines = []
    for _ in range(2):
        cur = p['find']['current']
        assert cur is not None, p['find']
        lines.append(b['dump_line'][str(cur['line'])] + B_HEADER)
        S.activate('pass-view.find-next', window=1)
        p = S.passes()
    assert sorted(lines) == [5566, 5587], lines


@test
def quits_cleanly():
    rc = S.quit(viewer)
    log = S.log(viewer)
    assert rc == 0 and 'CRITICAL' not in log, (rc, log)


S.close()
sys.exit(tap())
