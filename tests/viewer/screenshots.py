#!/usr/bin/env python3
"""Makes the README's screenshots of the viewer (docs/img/viewer-*.png) with
the real application under Xvfb, driven through its actions like the tests.

Usage: python3 tests/viewer/screenshots.py BUILD_DIR   (from the source root;
the dumps are BUILD_DIR/tests/dumps, unpacked by the build)
"""
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_harness import Session  # noqa: E402

BUILD = sys.argv[1]
DUMPS = os.path.join(BUILD, 'tests', 'dumps')
VIEWER = os.path.join(BUILD, 'viewer', 'tkview-viewer-test')  # the test actions
OUT = os.path.join('docs', 'img')
os.makedirs(OUT, exist_ok=True)


def shot(S, name, window=1):
    tmp = os.path.join(S.tmp, name)
    S.screenshot(tmp, window=window)
    shutil.copy(tmp, os.path.join(OUT, name))
    print(os.path.join(OUT, name))


def session(scheme):
    S = Session()
    S.env['TKVIEW_COLOR_SCHEME'] = scheme
    return S


# 1. Binding: vector_add.py:16 (s = tl.sum(output)) in TTGIR and PTX.
S = session('light')
v = S.start([VIEWER, os.path.join(DUMPS, 'vector_add')])
S.wait_registered(v)
S.wait_window(0)
S.set_state('show-second-view', '<true>')
S.activate('bind-view.second-stage', "<'ptx'>", window=1)
S.activate('select-source-location', "<('vector_add.py', uint32 16)>", window=1)
time.sleep(0.5)
shot(S, 'viewer-bind.png')
# 2. An IR line: its inline stack, its source line, its SASS.
S.activate('bind-view.second-stage', "<'sass'>", window=1)
S.activate('bind-view.select-ir-line', "<('ttgir', uint32 32)>", window=1)
time.sleep(0.5)
shot(S, 'viewer-stack.png')
# 3. Pass mode: TritonGPUCoalesce (mlir_passes.txt:1178).
S.activate('mode', "<'passes'>", window=1)
deadline = time.time() + 60
while (S.state()['windows'][0]['passes']['state'] != 'ready' or
       S.state()['windows'][0]['passes'].get('diff_pending')) and time.time() < deadline:
    time.sleep(0.1)
entries = S.state()['windows'][0]['passes']['entries']
i = next(i for i, e in enumerate(entries) if e['header_line'] == 1178)
S.activate('pass-view.select-pass', "<'%d'>" % i, window=1)
while S.state()['windows'][0]['passes']['diff_pending']:
    time.sleep(0.05)
time.sleep(0.5)
rows = S.state()['windows'][0]['passes']['b']
row = next(r for r in rows['insert'] + rows['replace']
           if rows['text'][str(r)].strip().startswith('%x_4 = ttg.convert_layout'))
S.activate('pass-view.select-diff-line', "<('b', uint32 %d)>" % row, window=1)
time.sleep(0.5)
shot(S, 'viewer-passes.png')
S.quit(v)
S.close()

# 4. Dark: the matmul kernel's TTGIR beside its SASS.
S = session('dark')
v = S.start([VIEWER, os.path.join(DUMPS, 'matmul')])
S.wait_registered(v)
w = S.wait_window(0)
S.set_state('show-second-view', '<true>')
S.activate('bind-view.second-stage', "<'sass'>", window=1)
src = w['bind']['source']['file']
# The tl.dot line of the kernel.
with open(w['bind']['source']['resolved']) as f:
    dot = next(n for n, line in enumerate(f, 1) if 'tl.dot(' in line)
S.activate('select-source-location', "<('%s', uint32 %d)>" % (src, dot), window=1)
time.sleep(0.5)
shot(S, 'viewer-dark.png')
S.quit(v)
S.close()
