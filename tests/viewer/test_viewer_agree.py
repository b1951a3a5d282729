#!/usr/bin/env python3
"""The viewer agrees with bind and hot on the lines of one bundle, under Xvfb.

tests/e2e/test_agree.py checks that `tkview bind --json`, `tkview hot --json`
and the report's data give every source line the same counts; this is the
viewer's part, on a bounded sample of lines to stay fast:

  - the hot lines panel (metric "instructions", sorted by inclusive: its
    first 40 rows, as the test state reports them) gives each line the exact,
    inclusive and shared counts `tkview hot --inclusive --json` gives it;
  - for up to 8 of those lines (the heaviest, and any line whose stages
    disagree), selecting the line with the SASS stage shown highlights the
    SASS instructions `tkview bind --source F:L --stage sass --json` lists.

Usage: test_viewer_agree.py TKVIEW-VIEWER-TEST TKVIEW BUNDLE   Prints TAP.
"""
import json
import os
import subprocess
import sys

from viewer_harness import Session, test, tap, skip_all, missing_tools

VIEWER, TKVIEW, BUNDLE = sys.argv[1], sys.argv[2], sys.argv[3]
SAMPLED = 8

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))


def tk_json(*args):
    p = subprocess.run([TKVIEW, *args, '--json'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


S = Session()
viewer = S.start([VIEWER, BUNDLE])
S.wait_registered(viewer)
W = S.wait_window(0)
SHOWN = W['kernel']
HOT = [k for k in tk_json('hot', BUNDLE, '--metric', 'instructions', '--inclusive',
                          '--top', '0')['kernels'] if k['hash'] == SHOWN['hash']][0]


def where(l):
    return '%s:%d' % (os.path.basename(l['file']), l['line'])


def win():
    return S.state()['windows'][0]


@test
def hot_panel_is_tkview_hot():
    S.activate('hot.metric', "<'instructions'>", window=1)
    S.activate('hot.sort', "<'inclusive'>", window=1)
    rows = win()['hot']['rows']
    assert rows, win()['hot']
    want = {}
    for l in HOT['lines']:
        want.setdefault(where(l), (l['exact'], l['inclusive'], l['shared']))
    for r in rows:
        assert r[0] in want, (r, sorted(want))
        assert tuple(r[1:]) == want[r[0]], (r, want[r[0]])


@test
def selected_lines_bind_what_tkview_bind_lists():
    S.activate('bind-view.stage', "<'sass'>", window=1)
    lines = sorted(HOT['lines'], key=lambda l: -l['inclusive'])
    pick = [l for l in lines if l.get('stages_disagree')] + lines
    seen, checked = set(), 0
    for l in pick:
        if checked == SAMPLED or where(l) in seen or not l['inclusive']:
            continue
        seen.add(where(l))
        b = tk_json('bind', BUNDLE, '--kernel', SHOWN['hash'], '--source',
                    '%s:%d' % (l['file'], l['line']), '--stage', 'sass')
        kb = [k for k in b['kernels'] if k['hash'] == SHOWN['hash']]
        if not kb or len(kb[0]['recorded_lines']) > 1:
            continue  # a statement of several recorded lines: test_agree.py's
        code = {x['line'] for x in kb[0]['stages']['sass'] if x['kind'] == 'instruction'}
        assert len(code) == l['inclusive'], (where(l), len(code), l['inclusive'])
        S.activate('select-source-location',
                   "<('%s', uint32 %d)>" % (l['file'], l['line']), window=1)
        p = win()['bind']['primary']
        assert p['stage'] == 'sass', p['stage']
        got = {n for n in p['matches'] if n in code or n not in
               {x['line'] for x in kb[0]['stages']['sass']}}
        assert got == code, (where(l), sorted(got - code), sorted(code - got))
        checked += 1
    assert checked, 'no line checked'


@test
def quits_cleanly():
    assert S.quit(viewer) == 0, S.log(viewer)


sys.exit(tap())
