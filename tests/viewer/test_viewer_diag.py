#!/usr/bin/env python3
"""The compiler's messages in the viewer, under Xvfb, on two raw captures of
sample_dumps/raw (unpacked here without their pass dumps; diag_remarks keeps
the first 200 KB of stderr.txt, which hold its every message):

 - diag_remarks: small_dot_kernel's MLIR remark "MMA version 3 acceleration
   not applied due to unsupported shapes or data types." at
   diag_remarks.py:28:18 (stderr.txt line 1, with its note on line 4, printed
   twice), on TTGIR line 46 (the tt.dot, located at #loc32 = "c"(#loc13),
   #loc13 = diag_remarks.py:28:18); serialized_dot_kernel's ptxas C7511
   warning and spills (stdout.txt), which name no line;
 - diag_ptxas_fatal: ptxas refused regcap_matmul_kernel, "ptxas fatal :
   (C7602) Insufficient registers (128) to compile instruction at line 630"
   (stdout.txt); line 630 of its PTX is a wgmma.mma_async whose governing
   .loc (line 620) is ".loc 1 28 27", diag_ptxas_fatal.py:28:27.

And one with its pass dumps whole (small): diag_ws_store, whose
persistent_matmul_kernel failed in NVGPUWarpSpecialization ("Pipeline
failed while executing [`NVGPUWarpSpecialization` ...", stderr.txt line
532); mlir_passes.txt (one kernel) has 30 "IR Dump Before" headers before
line 3330, "IR Dump Before NVGPUWarpSpecialization": pass 30.  "Open pass"
on its error opens pass mode at pass 30.

Each value above was read by hand from the capture's files.  A dot in the
gutter of each such line, coloured by severity (2 error, 0 remark); the
Diagnostics panel lists the messages and opens each at its line.  Prints TAP.

Usage: test_viewer_diag.py TKVIEW-VIEWER-TEST   (TK_TEST_SAMPLES)
"""
import os
import subprocess
import sys
import tempfile
import time

from viewer_harness import (Session, artefact_dir, missing_tools, png_pixels, skip_all,
                            tap, test)

VIEWER = sys.argv[1]
RAW = os.path.join(os.environ['TK_TEST_SAMPLES'], 'raw')

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))

TMP = tempfile.mkdtemp(prefix='tkview-viewer-diag-')


def unpack(name, stderr_bytes):
    tar = os.path.join(RAW, name + '.tar.xz')
    subprocess.run(['tar', '-xJf', tar, '-C', TMP, '--exclude', name + '/mlir_passes.txt',
                    '--exclude', name + '/stderr.txt'], check=True)
    with open(os.path.join(TMP, name, 'stderr.txt'), 'wb') as f:
        if stderr_bytes:
            p = subprocess.run('tar -xJOf %s %s/stderr.txt | head -c %d' % (tar, name, stderr_bytes),
                               shell=True, stdout=subprocess.PIPE, check=True)
            f.write(p.stdout)
    return os.path.join(TMP, name)


REMARKS = unpack('diag_remarks', 200000)
FATAL = unpack('diag_ptxas_fatal', 0)
subprocess.run(['tar', '-xJf', os.path.join(RAW, 'diag_ws_store.tar.xz'), '-C', TMP], check=True)
WS_STORE = os.path.join(TMP, 'diag_ws_store')

S = Session()
viewer = S.start([VIEWER, REMARKS])
S.wait_registered(viewer)
S.wait_window(0)


def win(i=0):
    return S.state()['windows'][i]


def wait_diag(window):
    """Until window WINDOW's document has its messages (read on a worker)."""
    deadline = time.time() + 120
    while not S.state()['windows'][window - 1]['diag']['ready']:
        assert time.time() < deadline, 'the compiler messages never came in'
        time.sleep(0.1)


def show(kernel, window=1):
    wait_diag(window)
    S.activate('select-kernel', "<'%s'>" % kernel, window=window)
    w = S.state()['windows'][window - 1]
    assert w['kernel']['name'] == kernel, (w['kernel'], w['last_error'])
    return w


@test
def remark_is_marked_on_its_source_and_ttgir_lines():
    w = show('small_dot_kernel')
    d = w['diag']
    assert d['heading'] == '1 compiler message', d['heading']
    assert d['rows'] == ['remark mlir | diag_remarks.py:28:18 [ttgir:46] | MMA version 3 '
                         'acceleration not applied due to unsupported shapes or data types.'], \
        d['rows']
    assert w['bind']['primary']['stage'] == 'ttgir'
    assert d['source'] == {'28': 0}, d['source']
    assert d['primary'] == {'46': 0}, d['primary']


@test
def activating_the_remark_opens_its_ttgir_line_and_source_line():
    S.activate('diag.activate', '<uint32 0>', window=1)
    w = win()
    assert w['bind']['anchor'] == {'kind': 'ir', 'stage': 'ttgir', 'line': 46}, w['bind']['anchor']
    # The TTGIR line's stack names diag_remarks.py:28: the source pane shows it.
    src = w['bind']['source']
    assert src['file'].endswith('/diag_remarks.py'), src
    assert 28 in src['matches'] + src['context'], src


@test
def messages_without_a_line_are_listed_and_mark_nothing():
    w = show('serialized_dot_kernel')
    d = w['diag']
    assert d['heading'] == '2 compiler messages', d['heading']
    assert d['failed_rows'] == [], d['failed_rows']  # none of diag_remarks failed
    assert len(d['rows']) == 2
    assert d['rows'][0].startswith('warning ptxas C7511 | no source line | Potential '
                                   'Performance Loss: wgmma.mma_async instructions are '
                                   'serialized'), d['rows']
    assert d['rows'][1] == ('warning ptxas | no source line | 512 bytes stack frame, '
                            '1192 bytes spill stores, 936 bytes spill loads'), d['rows']
    assert d['source'] == {} and d['primary'] == {}, d


@test
def failed_compile_shows_its_error_pinned_to_its_lines():
    p = S.run([VIEWER, FATAL], timeout=300)
    assert p.returncode == 0, p.stderr
    S.wait_window(1)
    w = show('regcap_matmul_kernel', window=2)
    d = w['diag']
    assert d['failed_rows'] == ['regcap_matmul_kernel'], d['failed_rows']
    assert d['heading'] == '1 compiler message: the compile FAILED', d['heading']
    assert d['rows'] == ['error ptxas C7602 | diag_ptxas_fatal.py:28:27 [ptx:630] | '
                         'Insufficient registers (128) to compile instruction at line 630 in '
                         'function regcap_matmul_kernel. Try to compile with register target '
                         'of 154 or higher.'], d['rows']
    assert d['source'] == {'28': 2}, d['source']
    S.activate('diag.activate', '<uint32 0>', window=2)
    w = win(1)
    assert w['bind']['anchor'] == {'kind': 'ir', 'stage': 'ptx', 'line': 630}, w['bind']['anchor']
    assert w['bind']['primary']['stage'] == 'ptx'
    assert w['diag']['primary'] == {'630': 2}, w['diag']['primary']


def red_dots(path, x0):
    """The red blobs (tkview:diag-error #e01b24, viewer/data/styles/tkview-light.xml)
    right of X0 in the PNG at PATH: [(top y, pixels)], one per row band."""
    w, h, rows = png_pixels(path)
    bpp = len(rows[0]) // w
    ys = {}
    for y, row in enumerate(rows):
        n = sum(1 for x in range(x0, w) if row[x * bpp:x * bpp + 3] == b'\xe0\x1b\x24')
        if n:
            ys[y] = n
    blobs = []
    for y in sorted(ys):
        if blobs and y - blobs[-1][2] <= 1:
            blobs[-1][1] += ys[y]
            blobs[-1][2] = y
        else:
            blobs.append([y, ys[y], y])
    return [(b[0], b[1]) for b in blobs]


@test
def screenshot_of_the_failed_kernel_and_its_message():
    S.activate('sidebar-page', "<'diag'>", window=2)
    path = os.path.join(artefact_dir(), 'viewer-diag.png')
    # Two dots in the binding view (right of the side panel, whose heading and
    # severity are red text): beside source line 28 and beside PTX line 630, once
    # the PTX pane has scrolled to it (which may land after a first screenshot).
    for _ in range(30):
        w, h = S.screenshot(path, window=2)
        lay = win(1)['layout']
        dots = red_dots(path, lay['window_width'] - lay['bind_view_width'])
        if len(dots) == 2:
            break
        time.sleep(1)
        S.activate('diag.activate', '<uint32 0>', window=2)
    print('# screenshot %s (%dx%d), red dots (top, pixels): %s' % (path, w, h, dots))
    assert len(dots) == 2 and all(20 <= n <= 150 for _, n in dots), dots


@test
def open_pass_opens_the_pass_the_pipeline_failed_in():
    p = S.run([VIEWER, WS_STORE], timeout=300)
    assert p.returncode == 0, p.stderr
    S.wait_window(2)
    w = show('persistent_matmul_kernel', window=3)
    rows = w['diag']['rows']
    pos = [i for i, r in enumerate(rows) if 'descriptor block and tensor types' in r]
    assert len(pos) == 1, rows
    S.activate('diag.open-pass', '<uint32 %d>' % pos[0], window=3)
    deadline = time.time() + 300
    while True:
        w = win(2)
        ps = w['passes']
        if w['mode'] == 'passes' and ps.get('state') == 'ready' and ps.get('selected') == '30':
            break
        assert time.time() < deadline, (w['mode'], ps.get('state'), ps.get('selected'))
        time.sleep(0.2)
    assert ps['selected_rows'] == ['30'], ps['selected_rows']
    # the row says which step it opened, in `tkview diagnostics`'s words
    said = win(2)['diag']['said'][pos[0]]
    assert said == ('step 30 of `tkview passes` (run 1 of 1: the pipeline failed '
                    'in it)'), said
    # kept for a look: the row with its words, beside the pass it opened
    S.activate('sidebar-page', "<'diag'>", window=3)
    time.sleep(1)
    S.screenshot(os.path.join(artefact_dir(), 'viewer-diag-open-pass.png'), window=3)


@test
def quits_cleanly():
    S.quit(viewer)


tap()
