#!/usr/bin/env python3
"""The viewer's pass mode, driven like a user would, under Xvfb.

vector_add's pass dumps (mlir_passes.txt) are read into the kernel's pass
timeline; passes are selected through pass-view.select-pass (what a click in
the pass list activates), diff lines through pass-view.select-diff-line,
source lines through win.select-source-location (the stack panel's action,
which goes to the view shown).  What the two sides highlight is read back
from the text buffers' tags.  Expected lines were read by hand from
mlir_passes.txt; the comments quote them.

Usage: test_viewer_passes.py TKVIEW-VIEWER-TEST TKVIEW   (TK_TEST_DUMPS: the dumps)
"""
import json
import os
import subprocess
import sys
import time

from viewer_harness import Session, test, tap, skip_all, missing_tools, artefact_dir

VIEWER = sys.argv[1]
TKVIEW = sys.argv[2]
DUMPS = os.environ['TK_TEST_DUMPS']
VA = os.path.join(DUMPS, 'vector_add')
VA_PY = '/tmp/capture/vector_add/src/vector_add.py'

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))

S = Session()
viewer = S.start([VIEWER, VA])
S.wait_registered(viewer)
S.wait_window(0)


def select_pass(spec):
    S.activate('pass-view.select-pass', "<'%s'>" % spec, window=1)
    p = S.wait_passes()
    assert p['selected'] == spec, (p['selected'], spec)
    return p


def index_at(p, header_line):
    (i,) = [i for i, e in enumerate(p['entries']) if e['header_line'] == header_line]
    return i


def texts(side, rows):
    return [side['text'][str(r)].strip() for r in rows]


@test
def pass_mode_reads_the_timeline():
    S.activate('mode', "<'passes'>", window=1)
    p = S.wait_passes()
    assert p['state'] == 'ready', p
    # mlir_passes.txt starts with `// -----// IR Dump Before Inliner (inline)` at line 1.
    assert p['entries'][0]['pass'] == 'Inliner' and p['entries'][0]['header_line'] == 1
    # It opens on the first pass that changed something.
    first = next(i for i, e in enumerate(p['entries']) if e['effect'] == 'changed')
    assert p['selected'] == str(first), (p['selected'], first)


@test
def a_canonicalizer_that_removed_an_unreachable_block():
    # mlir_passes.txt:112 `IR Dump Before Canonicalizer (canonicalize) ('tt.func' operation:
    # @triton.language.standard._sum_combine__fp32_fp32__)`; in the next dump (line 223) the
    # function has lost its unreachable block: `^bb1:  // no predecessors`,
    # `%1 = ub.poison : f32 loc(#loc24)`, `tt.return %1 : f32 loc(#loc24)`.  Nothing added.
    i = index_at(S.passes(), 112)
    p = select_pass(str(i))
    assert p['title'].startswith('Pass %d: Canonicalizer' % i), p['title']
    assert p['added'] == 0 and p['removed'] == 3, (p['added'], p['removed'])
    a, b = p['a'], p['b']
    gone = texts(a, a['delete'] + a['replace'])
    assert len(gone) == 3, gone
    assert gone[0] == '^bb1:  // no predecessors', gone
    assert gone[1].startswith('%1 = ub.poison : f32'), gone
    assert gone[2].startswith('tt.return %1 : f32'), gone
    assert b['insert'] == [] and b['replace'] == [], b
    assert a['name'].endswith('mlir_passes.txt:112'), a['name']


@test
def binding_is_live_in_the_diff():
    # Select the removed `%1 = ub.poison : f32 loc(#loc24)`:
    # #loc24 = loc(".../triton/language/standard.py":263:4), one frame.
    p = S.passes()
    row = next(r for r in p['a']['delete'] + p['a']['replace']
               if 'ub.poison' in p['a']['text'][str(r)])
    S.activate('pass-view.select-diff-line', "<('a', uint32 %d)>" % row, window=1)
    w = S.state()['windows'][0]
    frames = [(os.path.basename(f['file']), f['line'], f['col']) for f in w['stack']['frames']]
    assert frames == [('standard.py', 263, 4)], frames
    assert w['passes']['a']['selected'] == [row]


@test
def coalesce_inserts_layout_conversions():
    # mlir_passes.txt:1178 `IR Dump Before TritonGPUCoalesce`; the next dump (1251) adds
    # `#blocked1 = #ttg.blocked<{sizePerThread = [4], ...}>` and wraps the two loads and
    # the store in ttg.convert_layout: `%x_4 = tt.load %x_3, %mask_2` becomes
    # `%x_4 = ttg.convert_layout %x_3`, `%x_5 = ttg.convert_layout %mask_2`,
    # `%x_6 = tt.load %x_4, %x_5`, `%x_7 = ttg.convert_layout %x_6` (the same for y and for
    # tt.store): 3 lines removed, 1 + 3 x 4 = 13 added.
    i = index_at(S.passes(), 1178)
    p = select_pass(str(i))
    assert p['title'] == 'Pass %d: TritonGPUCoalesce' % i, p['title']
    assert (p['added'], p['removed']) == (13, 3), (p['added'], p['removed'])
    a, b = p['a'], p['b']
    old = texts(a, sorted(a['delete'] + a['replace']))
    assert [t.split(' ')[2] for t in old] == ['tt.load', 'tt.load', 'tt.store'] or \
        [t.split(' ')[0] for t in old][-1] == 'tt.store', old
    new = texts(b, sorted(b['insert'] + b['replace']))
    assert new[0].startswith('#blocked1 = #ttg.blocked<{sizePerThread = [4]'), new
    assert sum('ttg.convert_layout' in t for t in new) == 9, new
    # "A change" is the library's (tk_diff_changes()): the groups `tkview diff`
    # prints as its "@@" hunks, so the viewer counts what the CLI and the
    # report count; the chunk map still draws every edit of them.
    out = subprocess.run([TKVIEW, 'diff', VA, '--kernel', '0', '--pass', str(i), '--json'],
                         capture_output=True, text=True, check=True).stdout
    groups = len(json.loads(out)['hunks'])
    assert p['changes'] == groups and groups >= 2, (p['changes'], groups)
    assert p['chunk_map_changes'] >= p['changes'], (p['chunk_map_changes'], p['changes'])
    assert len(p['change_blocks']) == p['changes'], p['change_blocks']


@test
def a_pass_is_named_as_the_cli_and_the_report_name_it():
    # The library's grammar (tk_passref.h): mlir_passes.txt:1178 is the one
    # `IR Dump Before TritonGPUCoalesce (tritongpu-coalesce)`, so its name and its
    # argument name it, and the selection is shown in the grammar's own form.
    i = index_at(S.passes(), 1178)
    S.activate('pass-view.select-pass', "<'tritongpu-coalesce'>", window=1)
    p = S.wait_passes()
    assert p['selected'] == str(i), (p['selected'], i)
    assert p['title'] == 'Pass %d: TritonGPUCoalesce' % i, p['title']
    # Canonicalizer runs many times: a name of several passes selects nothing
    S.activate('pass-view.select-pass', "<'Canonicalizer'>", window=1)
    assert S.passes()['selected'] == str(i), S.passes()['selected']


@test
def a_replaced_row_marks_its_changed_words():
    # The same pass: mlir_passes.txt:1201 (before)
    #   `%x_4 = tt.load %x_3, %mask_2 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc29)`
    # faces, its replaced block aligned by likeness (tk_diff_align), the load
    # after it (mlir_passes.txt:1276), not the convert_layout first in the block:
    #   `%x_6 = tt.load %x_4, %x_5 : tensor<1024x!tt.ptr<f32>, #blocked1> loc(#loc29)`
    # By tokens the op, its shape and its location stayed; the result, both
    # operands and the layout alias changed: the words the library's
    # tk_ir_diff_words() gives, and the report's test_pass_diff marks.
    p = select_pass(str(index_at(S.passes(), 1178)))
    a, b = p['a'], p['b']
    (row_b,) = [r for r in b['replace'] if '%x_6 = tt.load %x_4, %x_5' in b['text'][str(r)]]
    (row_a,) = [r for r in a['replace'] if '%x_4 = tt.load %x_3, %mask_2' in a['text'][str(r)]]
    wa = [w.split(':', 1)[1] for w in a['words'] if int(w.split(':', 1)[0]) == row_a]
    wb = [w.split(':', 1)[1] for w in b['words'] if int(w.split(':', 1)[0]) == row_b]
    assert wa == ['%x_4', '%x_3', '%mask_2', '#blocked'], (row_a, a['words'])
    assert wb == ['%x_6', '%x_4', '%x_5', '#blocked1'], (row_b, b['words'])
    # the convert_layout before the new load is an added row
    assert any('%x_4 = ttg.convert_layout %x_3' in b['text'][str(r)] for r in b['insert']), b['insert']
    # an added row (#blocked1 = ...) has no words: it is all new
    assert not any(w.startswith('#blocked1 = ') for w in b['words']), b['words']


@test
def next_change_scrolls_both_sides_along_the_hunks():
    # A diff opens on its first change once it has been drawn.
    deadline = time.time() + 120
    while S.passes()['change_index'] != 0:
        assert time.time() < deadline, S.passes()['change_text']
        time.sleep(0.05)
    S.activate('pass-view.next-change', window=1)

    def paired(p):
        """The row in the middle of B is the one the hunks pair with the
        middle of A (one to one in equal runs, proportionally in changes)."""
        a_row, b_row = p['a']['center_row'], p['b']['center_row']
        k = a_row - 1
        for tag, a0, a1, b0, b1 in p['hunks']:
            if k < a1:
                want = b0 + (k - a0) + 1 if tag == 'equal' else \
                    b0 + ((k - a0) * (b1 - b0) // (a1 - a0) if a1 > a0 else 0) + 1
                break
        b = p['b']
        # B cannot go past its ends: then it stops there.
        clamped = (want < b_row and b['scroll'] <= 0.5) or \
            (want > b_row and b['scroll'] >= b['scroll_max'] - 0.5)
        return abs(b_row - want) <= 1 or clamped, (a_row, b_row, want, b['scroll'],
                                                    b['scroll_max'])

    # GtkTextView measures lines in idle time: give a slow (sanitizer) build
    # the time to settle; the panes are placed again as it does.
    deadline = time.time() + 120
    p = S.passes()
    while not paired(p)[0] and time.time() < deadline:
        time.sleep(0.1)
        p = S.passes()
    assert p['change_text'] == 'change 2 of %d' % p['changes'], p['change_text']
    assert paired(p)[0], paired(p)[1]
    S.activate('pass-view.previous-change', window=1)
    assert S.passes()['change_text'] == 'change 1 of %d' % p['changes']


@test
def a_changed_line_shows_its_source_line():
    # `%x_4 = ttg.convert_layout %x_3 ... loc(#loc29)`, #loc29 = loc("x"(#loc8)),
    # #loc8 = loc(".../vector_add.py":12:16): line 12, `x = tl.load(x_ptr + offsets, mask=mask)`.
    p = S.passes()
    row = next(r for r in p['b']['insert'] + p['b']['replace']
               if p['b']['text'][str(r)].strip().startswith('%x_4 = ttg.convert_layout %x_3'))
    S.activate('pass-view.select-diff-line', "<('b', uint32 %d)>" % row, window=1)
    w = S.state()['windows'][0]
    assert w['passes']['source']['matches'] == [12], w['passes']['source']
    assert w['passes']['source']['file'] == VA_PY
    frames = [(f['file'], f['line'], f['col']) for f in w['stack']['frames']]
    assert frames == [(VA_PY, 12, 16)], frames


@test
def a_source_line_highlights_its_lines_in_both_sides():
    # vector_add.py:13 `y = tl.load(y_ptr + offsets, mask=mask)`: #loc9 = :13:24 ("y" splat
    # and addptr), #loc10 = :13:16 (the load).  Before: %y = tt.splat, %y_5 = tt.addptr,
    # %y_6 = tt.load.  After: %y, %y_8 = tt.addptr, %y_9 and %y_10 = ttg.convert_layout,
    # %y_11 = tt.load, %y_12 = ttg.convert_layout.
    S.activate('select-source-location', "<('vector_add.py', uint32 13)>", window=1)
    p = S.passes()
    a = texts(p['a'], p['a']['matches'])
    b = texts(p['b'], p['b']['matches'])
    assert [t.split(' ')[0] for t in a] == ['%y', '%y_5', '%y_6'], a
    assert [t.split(' ')[0] for t in b] == ['%y', '%y_8', '%y_9', '%y_10', '%y_11', '%y_12'], b
    assert p['source']['selected'] == [13]


@test
def changed_only_hides_the_passes_that_changed_nothing():
    before = S.passes()
    S.set_state('pass-view.changed-only', '<true>')
    p = S.passes()
    unchanged = sum(e['effect'] == 'unchanged' for e in p['entries'])
    assert unchanged > 100 and p['listed'] <= before['listed'] - unchanged, \
        (p['listed'], before['listed'], unchanged)
    assert p['selected_rows'] == [p['selected']], p['selected_rows']
    S.set_state('pass-view.changed-only', '<false>')
    assert S.passes()['listed'] == before['listed']


@test
def a_range_of_passes_diffs_the_first_before_against_the_last_after():
    i = index_at(S.passes(), 1106)  # ConvertTritonToTritonGPU, just before Coalesce
    p = select_pass('%d-%d' % (i, i + 1))
    assert p['title'].startswith('Passes %d to %d: ConvertTritonToTritonGPU' % (i, i + 1)), p['title']
    assert p['selected_rows'] == [str(i), str(i + 1)], p['selected_rows']
    assert p['a']['name'].endswith('mlir_passes.txt:1106'), p['a']['name']


@test
def screenshot_of_the_pass_mode():
    i = index_at(S.passes(), 1178)
    select_pass(str(i))
    time.sleep(0.3)
    path = os.path.join(artefact_dir(), 'viewer-passes.png')
    w, h = S.screenshot(path, window=1)
    print('# screenshot %s (%dx%d)' % (path, w, h))
    assert w >= 1000 and h >= 600


@test
def a_pass_opens_at_its_first_change_far_down():
    # The first changed pass whose first change starts past row 80 of A:
    # once drawn, the middle of A is in that change (or A is scrolled to
    # its end), not at row 1 as when the rows below were not measured yet.
    entries = S.passes()['entries']
    for i, e in enumerate(entries):
        if e['effect'] != 'changed':
            continue
        p = select_pass(str(i))
        if p['change_blocks'] and p['change_blocks'][0][1] > 80:
            break
    else:
        raise AssertionError('no pass with a change past row 80')
    _, a0, a1, _, _ = p['change_blocks'][0]

    def there(p):
        a = p['a']
        return a0 - 2 <= a['center_row'] <= a1 + 2 or a['scroll'] >= a['scroll_max'] - 0.5

    deadline = time.time() + 20
    while not there(p) and time.time() < deadline:
        time.sleep(0.1)
        p = S.passes()
    assert there(p), (i, a0, a1, p['a']['center_row'], p['a']['scroll'], p['a']['scroll_max'])


@test
def quits_cleanly():
    rc = S.quit(viewer)
    log = S.log(viewer)
    assert rc == 0 and 'CRITICAL' not in log, (rc, log)


S.close()
sys.exit(tap())
