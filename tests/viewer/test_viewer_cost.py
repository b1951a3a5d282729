#!/usr/bin/env python3
"""The viewer's cost columns and hot lines panel, under Xvfb, on the profiled
sample bundle (sample_dumps/matmul_profile): what the viewer shows must be
what `tkview hot --json` prints (both come from libtkdump's tk_cost.h;
tests/e2e/test_cost_cli.py checks those numbers against the Nsight Compute
export by an independent reading), and the report shows the same
(tests/html/test_cost.mjs).

Usage: test_viewer_cost.py TKVIEW-VIEWER-TEST TKVIEW   (TK_TEST_SAMPLES)
"""
import json
import os
import subprocess
import sys

from viewer_harness import Session, test, tap, skip_all, missing_tools, artefact_dir

VIEWER, TKVIEW = sys.argv[1], sys.argv[2]
MP = os.path.join(os.environ['TK_TEST_SAMPLES'], 'matmul_profile')

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))


def short(v):
    """What the cost column writes for V (tkv_cost_short, cost.js's short)."""
    a = abs(v)
    if a < 1000:
        return '%.4g' % v
    s = ('%.1fk' % (v / 1e3)) if a < 1e5 else ('%.0fk' % (v / 1e3)) if a < 1e6 else \
        ('%.1fM' % (v / 1e6)) if a < 1e8 else ('%.0fM' % (v / 1e6))
    return s.replace('.0k', 'k').replace('.0M', 'M')


def hot_json(*args):
    p = subprocess.run([TKVIEW, 'hot', MP, '--json', '--top', '0', *args],
                       stdout=subprocess.PIPE, check=True)
    return json.loads(p.stdout)['kernels'][0]


HOT = hot_json('--inclusive')
LINES = {l['line']: l for l in HOT['lines'] if l['file'].endswith('/matmul_profile.py')}

S = Session()
viewer = S.start([VIEWER, MP])
S.wait_registered(viewer)
W = S.wait_window(0)


def win():
    return S.state()['windows'][0]


SAMPLES = 16  # the index of the first profile metric (see below)


@test
def hot_lines_made_when_first_read():
    # The side panel opens on the inline stack: the hot lines panel makes
    # its rows when it is first shown or read (viewer/panels/tkv_hot_panel.c),
    # not in the first view.  The first state of the ready window was
    # written before anything read the panel; that read made them.
    assert W['hot']['filled'] is False, W['hot']
    h = win()['hot']
    assert h['filled'] and h['rows'] and h['heading'], h


@test
def source_column_is_tkview_hot():
    b = W['bind']
    # samples: after the 16 static metrics (instructions, 9 classes,
    # spill_instructions, spill_bytes, and the four live_* counts of the
    # bundle's matmul_pipelined.sass_lr)
    assert b['metric'] == SAMPLES, b['metric']
    heat = b['source']['heat']
    # "and what it called" (the default): the inclusive values
    want = {str(n): short(l['inclusive']) for n, l in LINES.items() if l['inclusive']}
    assert heat == want, (heat, want)
    assert heat['54'] == '10.9k' and heat['57'] == '829', heat


@test
def this_line_only_shows_exact_values():
    S.set_state('exact-only', '<true>')
    heat = win()['bind']['source']['heat']
    want = {str(n): short(l['exact']) for n, l in LINES.items() if l['exact']}
    assert heat == want, (heat, want)
    assert '57' not in heat  # leaky_relu's code is line 34's
    S.set_state('exact-only', '<false>')


@test
def hot_panel_lists_and_sorts():
    h = win()['hot']
    assert h['scope'] == 'source' and h['metric'] == SAMPLES, h
    assert h['heading'].startswith('Warp Stall Sampling (All Samples): 40471 in all'), h
    assert 'could not be given to one call site' in h['heading'], h
    # every line with a value, as `tkview hot --inclusive` lists them, by
    # exact value
    assert h['rows'][0] == ['matmul_profile.py:54', 10874, 10874, 0], h['rows'][0]
    want = sorted((l['exact'] for l in HOT['lines']), reverse=True)
    assert [r[1] for r in h['rows']] == want[:len(h['rows'])], (h['rows'], want)
    S.activate('hot.sort', "<'shared'>", window=1)
    assert win()['hot']['rows'][0][3] == 148, win()['hot']['rows'][:3]
    S.activate('hot.sort', "<'inclusive'>", window=1)
    rows = win()['hot']['rows']
    assert [r[2] for r in rows] == sorted([r[2] for r in rows], reverse=True), rows
    S.activate('hot.sort', "<'exact'>", window=1)


@test
def activating_a_row_selects_its_line():
    S.activate('hot.activate', '<uint32 1>', window=1)  # matmul_profile.py:52
    b = win()['bind']
    assert b['anchor']['kind'] == 'source' and b['anchor']['line'] == 52, b['anchor']
    S.activate('hot.scope', "<'sass'>", window=1)
    h = win()['hot']
    # matmul_pipelined.sass_gi:1078, /*2bf0*/ @!PT LDS RZ, [RZ] ; 6252 samples
    assert h['scope'] == 'sass' and h['rows'][0][:2] == ['1078', 6252], h['rows'][:2]
    S.activate('hot.activate', '<uint32 0>', window=1)
    b = win()['bind']
    assert b['anchor'] == {'kind': 'ir', 'stage': 'sass', 'line': 1078}, b['anchor']
    assert b['primary']['stage'] == 'sass' and b['primary']['heat']['1078'] == '6.3k'
    S.activate('hot.scope', "<'source'>", window=1)


@test
def metric_follows_the_panel():
    S.activate('hot.metric', "<'tensor'>", window=1)
    w = win()
    assert w['hot']['metric'] == 3 and w['bind']['metric'] == 3, (w['hot'], w['bind']['metric'])
    assert w['bind']['source']['heat'] == {'53': '2', '54': '6'}, w['bind']['source']['heat']
    S.activate('hot.metric', "<'samples'>", window=1)
    S.activate('sidebar-page', "<'hot'>", window=1)
    S.screenshot(os.path.join(artefact_dir(), 'viewer-cost.png'), window=1)


@test
def an_ir_line_shows_its_own_share_named_as_bind_says():
    # matmul_pipelined.ttgir:134 is the ttng.warp_group_dot of line 54, 135
    # its warp_group_dot_wait: both are bound to all of line 54's SASS,
    # whose 6 HGMMA (.sass_gi, under "line 54") are the dot's own share
    S.activate('bind-view.stage', "<'ttgir'>", window=1)
    S.activate('bind-view.select-ir-line', "<('ttgir', uint32 134)>", window=1)
    p = win()['bind']['primary']
    cli = subprocess.run([TKVIEW, 'bind', MP, '--ir', 'ttgir:134', '--stage', 'sass'],
                         stdout=subprocess.PIPE, check=True, text=True).stdout.split('\n')
    said = [l.strip() for l in cli if l.strip().startswith('samples: this TTGIR line: ')]
    assert said and p['heat_tip'].split('\n')[0] == said[0], (p['heat_tip'], said)
    assert 'source line matmul_profile.py:54 total: %d' % LINES[54]['exact'] in said[0], said
    S.activate('hot.metric', "<'tensor'>", window=1)
    p = win()['bind']['primary']
    assert p['heat'].get('134') == '6' and '135' not in p['heat'], p['heat']
    assert p['heat_tip'].startswith('tensor: this TTGIR line: 6 (its share of the 6 bound to it)'), p['heat_tip']
    S.activate('hot.metric', "<'samples'>", window=1)


@test
def quits_cleanly():
    assert S.quit(viewer) == 0, S.log(viewer)


sys.exit(tap())
