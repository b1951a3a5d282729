#!/usr/bin/env python3
"""The viewer's compare mode, driven like a user would, under Xvfb.

sample_dumps/matmul_configs holds one matmul in three configurations:
kernel 0 = 01cca3c5 (4 warps, 3 stages), 1 = 0cfc4f76 (4 warps, 2 stages),
2 = b4f5182e (8 warps, 3 stages); tkview info lists them in that order.  The
expectations were read off their passes/mlir.txt.gz (zcat | sed -n) and are
checked independently by tests/e2e/test_compare.py:
  0 vs 1: the first output to differ is the Before dump of
    TritonGPUScheduleLoops (line 6979), so pass 30, TritonGPUAssignLatencies;
    line 7052: A `%a_53 = tt.load ... {tt.latency = 2 : i32}`, B the same with
    `{tt.latency = 1 : i32}`;
  0 vs 2: the Before dump of TritonGPUCoalesce (line 3385), so pass 12,
    ConvertTritonToTritonGPU; line 3386: A `#blocked = ... warpsPerCTA = [2, 2]
    ...`, B `... warpsPerCTA = [4, 2] ...`.
Compare mode is entered through win.mode, the other kernel chosen through
compare-view.compare-with (what the "Compare with" menu activates), rows
through compare-view.select-row and the keys' actions.

Usage: test_viewer_compare.py TKVIEW-VIEWER-TEST TKVIEW   (TK_TEST_SAMPLES)
"""
import os
import sys
import time

from viewer_harness import Session, test, tap, skip_all, missing_tools, artefact_dir

VIEWER = sys.argv[1]
MC = os.path.join(os.environ['TK_TEST_SAMPLES'], 'matmul_configs')

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))

S = Session()
viewer = S.start([VIEWER, MC])
S.wait_registered(viewer)
S.wait_window(0)


def compare(want=None):
    """The compare view once the comparison and the row's diff are made."""
    deadline = time.time() + 120
    while time.time() < deadline:
        c = S.state()['windows'][0]['compare']
        if c['state'] not in ('loading', 'idle') and not c.get('diff_pending'):
            if want is None or want(c):
                return c
        time.sleep(0.05)
    raise RuntimeError('the comparison never came: %s' % c)


@test
def compare_mode_opens_on_the_first_divergence_num_stages():
    S.activate('mode', "<'compare'>", window=1)
    # kernel 0 is shown; by default B is the next kernel of its name, 1
    c = compare(lambda c: c['state'] == 'ready')
    assert c['other'] == 1, c['other']
    assert c['rows'] == 72 and c['first'] == 30, (c['rows'], c['first'])
    assert c['row'] == 30 and c['which'] == 'after', (c['row'], c['which'])
    assert 'TritonGPUAssignLatencies' in c['first_text'], c['first_text']
    assert any('%a_53 = tt.load' in t and '{tt.latency = 2 : i32}' in t for t in c['a_del']), c['a_del']
    assert any('%a_53 = tt.load' in t and '{tt.latency = 1 : i32}' in t for t in c['b_add']), c['b_add']
    # the configuration: num_stages 3 | 2 marked as differing
    facts = c['facts']
    assert any(l.startswith('* num_stages') and '3  |  2' in l for l in facts.split('\n')), facts


@test
def rows_and_before_after():
    S.activate('compare-view.which', "<'before'>", window=1)
    c = compare()
    assert c['which'] == 'before' and not c['has_diff'] and 'the same in both' in c['title'], c
    S.activate('compare-view.which', "<'after'>", window=1)
    S.activate('compare-view.next-row', None, window=1)
    c = compare(lambda c: c['row'] == 31)
    assert c['has_diff'], c['title']
    S.activate('compare-view.select-row', '<uint32 5>', window=1)
    c = compare(lambda c: c['row'] == 5)
    assert not c['has_diff'] and 'the same in both' in c['title'], c['title']
    S.activate('compare-view.first', None, window=1)
    c = compare(lambda c: c['row'] == 30)


@test
def compare_with_the_eight_warp_configuration():
    S.activate('compare-view.compare-with', "<'2'>", window=1)
    c = compare(lambda c: c['state'] == 'ready' and c['other'] == 2 and c.get('row') == 12)
    assert c['first'] == 12 and 'ConvertTritonToTritonGPU' in c['first_text'], c['first_text']
    assert any(t.split(None, 1)[1].startswith('#blocked = ') and 'warpsPerCTA = [2, 2]' in t
               for t in c['a_del']), c['a_del'][:3]
    assert any('warpsPerCTA = [4, 2]' in t for t in c['b_add']), c['b_add'][:3]
    path = os.path.join(artefact_dir(), 'viewer-compare.png')
    w, h = S.screenshot(path, window=1)
    print('# screenshot %s (%dx%d)' % (path, w, h))


@test
def another_kernel_keeps_its_own_pair():
    # showing kernel 2: B becomes the next kernel of its name, 0 (wrapping)
    S.activate('select-kernel', "<'2'>", window=1)
    c = compare(lambda c: c['state'] == 'ready' and c['other'] == 0)
    assert c['first'] == 12, c['first']
    # a bad kernel is an error, not a crash
    S.activate('compare-view.compare-with', "<'nothing'>", window=1)
    w = S.state()['windows'][0]
    assert 'compare-with' in (w['last_error'] or ''), w['last_error']


code = S.quit(viewer)
assert code == 0, (code, S.log(viewer))
sys.exit(tap())
