#!/usr/bin/env python3
"""The viewer's main views at 1280x800 and 1600x1000 under Xvfb, on real
captures (sample_dumps/), each kept as a picture (in TKV_TEST_ARTEFACTS) and
checked for what a person would see as broken:
  - the window is the size it was given (a content wider or taller than
    the screen makes GTK grow the window past it);
  - no widget is drawn outside the window (test-state's "geometry": a
    widget whose bounds pass the window's edge with no scrolling or
    clipping widget around it);
  - the source file menu's button shows its file's whole name when the
    name is short (12 characters at most; longer ones where the pane has
    the room), and a cut one has the whole name as its tooltip;
  - the side panel folds away on its own at 1280 (the code gets its
    width) and is shown at 1600; asked for (the hot lines page), it comes
    back at 1280 too, and the hot lines table fits it (no sideways
    scrolling: its numbers whole, places and code cut);
  - the code is readable: each compare diff side and each pass diff side
    shows at least MIN_CHARS characters across.
The views: bind (matmul_profile.py:54 with TTGIR and SASS beside), hot
(the hot lines side page), passes (TritonGPUPipeline of matmul), compare
(matmul_configs' first two compiles).  tests/viewer/screenshots.py copies
pictures like these into docs/img.

Usage: test_viewer_screens.py TKVIEW-VIEWER-TEST TKVIEW
  (TK_TEST_SAMPLES: sample_dumps; TK_SCREENS_OUT, optional: a folder the
  pictures are copied to as well)
"""
import os
import shutil
import sys
import time

from viewer_harness import Session, test, tap, skip_all, missing_tools, artefact_dir

VIEWER = sys.argv[1]
SAMPLES = os.environ.get('TK_TEST_SAMPLES') or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'sample_dumps')
KEEP = os.environ.get('TK_SCREENS_OUT', '')
SIZES = [(1280, 800), (1600, 1000)]
# characters across a diff side at 1280 at least: an IR line's value,
# operation and first operands (each side showed 18 with the side panel
# taking 300 px of the window)
MIN_CHARS = 40

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))

S = Session()
# the session's folder goes with it: the pictures stay in the viewer
# tests' own folder (TKV_TEST_ARTEFACTS, in the build)
SHOTS = artefact_dir()
print('# pictures in ' + SHOTS)


def win(i=0):
    return S.state()['windows'][i]


def settle(i=0, want=None):
    """The window's state once its geometry reads the same twice."""
    last = None
    deadline = time.time() + 120
    while time.time() < deadline:
        w = win(i)
        if w['state'] == 'ready' and (want is None or want(w)):
            g = w.get('geometry')
            if g is not None and g == last:
                return w
            last = g
        time.sleep(0.15)
    raise RuntimeError('the window never settled: %s' % (last,))


def check(name, size, wid, extra=None, before=None):
    """Resizes window WID to SIZE, does BEFORE (if any), takes its
    picture, checks it."""
    w, h = size
    S.activate('test-resize', "<(uint32 %d, %d, %d)>" % (wid, w, h))
    st = settle(want=lambda s: s['geometry']['width'] <= w + 1)
    if before:
        before(wid)
    time.sleep(0.3)
    st = settle()
    path = os.path.join(SHOTS, 'viewer-%s-%dx%d.png' % (name, w, h))
    S.screenshot(path, window=wid)
    if KEEP:
        os.makedirs(KEEP, exist_ok=True)
        shutil.copy(path, KEEP)
    g = st['geometry']
    bad = []
    if g['width'] > w or g['height'] > h:
        bad.append('the window is %dx%d, not %dx%d: its content does not fit' % (g['width'], g['height'], w, h))
    bad += ['off the window: ' + o for o in g['off_window'][:6]]
    if extra:
        bad += extra(st)
    assert not bad, '; '.join(bad)


def file_menu(st):
    """The source file menu: a short name whole, a cut one with a tooltip."""
    out = []
    f = st['bind']['source'].get('file') or ''
    base = os.path.basename(f)
    for c in st['geometry']['cut_labels']:
        # 12: the characters the button keeps at least (SELECTOR_MIN_CHARS)
        if base and len(base) <= 12 and c['text'] == base:
            out.append('the file menu cuts %r' % base)
        if c['text'].endswith('.py') and not c['tooltip']:
            out.append('%r is cut with no tooltip' % c['text'])
    return out


def sidebar_folds(st):
    """The side panel: folded away in a narrow window, shown in a wide one."""
    narrow = st['geometry']['width'] < 1440
    if st['layout']['sidebar_visible'] == narrow:
        return ['the side panel is %s at %d px' % ('shown' if narrow else 'hidden',
                                                    st['geometry']['width'])]
    return []


def sides_readable(owner):
    """Each side of the diff in OWNER shows MIN_CHARS characters across."""
    def fn(st):
        sides = [v for v in st['geometry']['code']['views'] if v['in'] == owner]
        if len(sides) < 2:
            return ['%d diff sides in %s' % (len(sides), owner)]
        return ['a side of the diff shows %d characters across, not %d' % (v['chars'], MIN_CHARS)
                for v in sides if v['chars'] < MIN_CHARS]
    return fn


def hot_fits(st):
    out = []
    if not st['layout']['sidebar_visible']:
        out.append('the hot lines page asked for, the side panel not shown')
    hot = st['hot']
    if hot['table_needs'] > hot['table_has']:
        out.append('the hot lines table needs %d px and has %d' % (hot['table_needs'], hot['table_has']))
    return out


def all_of(*checks):
    return lambda st: [b for c in checks for b in c(st)]


def view(name, wid, extra=None, before=None):
    """The checks of one view at each size, one TAP line each."""
    for size in SIZES:
        def fn(size=size):
            check(name, size, wid, extra, before)
        fn.__name__ = '%s at %dx%d: the size given, nothing off the window' % ((name,) + size)
        test(fn)


def wait(pred, what, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if pred(win()):
            return
        time.sleep(0.1)
    raise RuntimeError('never: ' + what)


# ---- bind and hot: the profiled matmul -------------------------------------
v = S.start([VIEWER, os.path.join(SAMPLES, 'matmul_profile')])
S.wait_registered(v)
W = S.wait_window(0)
WID = W['id']
S.set_state('show-second-view', '<true>', window=WID)
S.activate('bind-view.second-stage', "<'sass'>", window=WID)
S.activate('select-source-location', "<('matmul_profile.py', uint32 54)>", window=WID)
wait(lambda w: 54 in w['bind']['source'].get('selected', []), 'line 54 selected')
view('bind', WID, all_of(file_menu, sidebar_folds))
# the page asked for at each size (a narrow window folds the panel away
# when it becomes narrow; asking shows it again)
view('hot', WID, hot_fits,
     before=lambda wid: S.activate('sidebar-page', "<'hot'>", window=wid))
S.quit(v)

# ---- passes: TritonGPUPipeline of matmul -----------------------------------
v = S.start([VIEWER, os.path.join(SAMPLES, 'matmul')])
S.wait_registered(v)
W = S.wait_window(0)
WID = W['id']
S.activate('mode', "<'passes'>", window=WID)
wait(lambda w: w['passes']['state'] == 'ready' and not w['passes'].get('diff_pending'), 'passes')
entries = win()['passes']['entries']
i = next(i for i, e in enumerate(entries) if (e.get('pass') or '').startswith('TritonGPUPipeline'))
S.activate('pass-view.select-pass', "<'%d'>" % i, window=WID)
wait(lambda w: not w['passes'].get('diff_pending'), 'the diff')
# a changed line selected: the side panel's heading then names the pass's
# dump and line ("After the pass: line N of mlir.txt.gz:11086"), which once
# widened the panel and pushed the diff's buttons off the window
rows = win()['passes']['b']
S.activate('pass-view.select-diff-line', "<('b', uint32 %d)>" % (rows['replace'] + rows['insert'])[0],
           window=WID)
wait(lambda w: w['stack']['heading'].startswith('After the pass'), 'the stack heading')
view('passes', WID, all_of(sidebar_folds, sides_readable('TkvPassView')))
S.quit(v)

# ---- compare: two compiles of one kernel ------------------------------------
v = S.start([VIEWER, os.path.join(SAMPLES, 'matmul_configs')])
S.wait_registered(v)
W = S.wait_window(0)
WID = W['id']
S.activate('mode', "<'compare'>", window=WID)
wait(lambda w: w['compare']['state'] == 'ready' and not w['compare'].get('diff_pending'), 'the comparison')
view('compare', WID, all_of(sidebar_folds, sides_readable('TkvCompareView')))
S.quit(v)

S.close()
sys.exit(tap())
