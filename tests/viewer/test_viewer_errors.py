#!/usr/bin/env python3
"""The viewer on input it cannot read, and without a display: it explains
itself, in the window or on stderr, and never crashes.

Usage: test_viewer_errors.py TKVIEW-VIEWER-TEST TKVIEW [TKVIEW-VIEWER]   (TK_TEST_SAMPLES: sample_dumps/)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from viewer_harness import Session, test, tap, skip_all, missing_tools, artefact_dir

VIEWER, TKVIEW = sys.argv[1], sys.argv[2]
# The installed program (tkview-viewer), beside the test build VIEWER.
INSTALLED = sys.argv[3] if len(sys.argv) > 3 else None
SAMPLES = os.environ['TK_TEST_SAMPLES']


@test
def without_a_display_it_explains_itself():
    env = dict(os.environ)
    env.pop('DISPLAY', None)
    env.pop('WAYLAND_DISPLAY', None)
    for args in ([], [os.path.join(SAMPLES, 'vector_add')]):
        p = subprocess.run([VIEWER, *args], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=300)
        err = p.stderr.decode()
        assert p.returncode == 2, (p.returncode, err)
        assert 'cannot open a display' in err and 'tkview info PATH' in err, err
    p = subprocess.run([VIEWER, '--bench', os.path.join(SAMPLES, 'vector_add')], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert p.returncode == 2 and b'display' in p.stderr, p.stderr
    if INSTALLED:
        p = subprocess.run([INSTALLED, os.path.join(SAMPLES, 'vector_add')], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        err = p.stderr.decode()
        assert p.returncode == 2 and 'cannot open a display' in err, (p.returncode, err)
    # `tkview` alone: why there is no viewer, then the commands that work.
    p = subprocess.run([TKVIEW], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    err = p.stderr.decode()
    assert p.returncode == 2 and 'no display' in err and 'Usage: tkview' in err, err
    # `tkview PATH`: the same, naming the commands for PATH.
    p = subprocess.run([TKVIEW, os.path.join(SAMPLES, 'vector_add')], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    err = p.stderr.decode()
    assert p.returncode == 2 and 'no display' in err and 'tkview info PATH' in err, err
    # A mistyped command is still one, not a path for the viewer.
    p = subprocess.run([TKVIEW, 'infoo'], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    assert p.returncode == 2 and b'unknown command' in p.stderr, p.stderr


@test
def the_benchmark_is_in_the_test_build_only():
    # tkview-viewer-test --help names --bench; the installed program, the
    # same program without the test build's extension, does not.
    p = subprocess.run([VIEWER, '--help'], stdout=subprocess.PIPE, timeout=300)
    assert p.returncode == 0 and b'--bench PATH' in p.stdout, p.stdout
    if INSTALLED:
        p = subprocess.run([INSTALLED, '--help'], stdout=subprocess.PIPE, timeout=300)
        assert p.returncode == 0 and b'Usage: tkview-viewer' in p.stdout, p.stdout
        assert b'--bench' not in p.stdout, p.stdout


if missing_tools():
    print('# the rest needs %s' % ', '.join(missing_tools()))
    sys.exit(tap())

work = tempfile.mkdtemp(prefix='tkview-viewer-bad-')
# A bundle whose manifest is cut in the middle and whose only stage file is
# binary: nothing at all can be loaded.
corrupt = os.path.join(work, 'corrupt')
os.makedirs(os.path.join(corrupt, 'k1'))
with open(os.path.join(corrupt, 'manifest.json'), 'w') as f:
    f.write('{"format": "tkview-bundle", "format_version": 1, "kernels": [ {"name": "x", ')
with open(os.path.join(corrupt, 'k1', 'x.ttgir'), 'wb') as f:
    f.write(b'garbage\x00\x01\x02')
# A copy of the sample vector_add bundle whose PTX is replaced by binary data:
# the kernel loads without it, with a warning.
damaged = os.path.join(work, 'damaged')
shutil.copytree(os.path.join(SAMPLES, 'vector_add'), damaged)
ptx = [os.path.join(r, n) for r, _, ns in os.walk(damaged) for n in ns if n.endswith('.ptx')]
assert len(ptx) == 1, ptx
with open(ptx[0], 'wb') as f:
    f.write(b'\x7fELF\x00\x00binary')

# A copy of the sample vector_add bundle whose TTGIR locations name a file
# beside it, outside the bundle (docs/bundle.md, "What a bundle may read"):
# add_kernel.ttgir's `loc("/tmp/capture/vector_add/src/vector_add.py":L:C)`
# lines all renamed.  The file has 40 lines, vector_add.py 33: a pane showing
# 40 lines would have read it.
hostile = os.path.join(work, 'hostile')
shutil.copytree(os.path.join(SAMPLES, 'vector_add'), hostile)
secret = os.path.join(work, 'secret.py')
with open(secret, 'w') as f:
    f.write(''.join('SECRET_%d = %d\n' % (i, i) for i in range(40)))
(ttgir,) = [os.path.join(r, n) for r, _, ns in os.walk(hostile) for n in ns
            if n.endswith('.ttgir')]
with open(ttgir) as f:
    text = f.read()
assert text.count('"/tmp/capture/vector_add/src/vector_add.py"') == 16
with open(ttgir, 'w') as f:
    f.write(text.replace('"/tmp/capture/vector_add/src/vector_add.py"', '"%s"' % secret))

S = Session()
viewer = S.start([VIEWER, corrupt])
S.wait_registered(viewer)

@test
def the_benchmark_is_in_the_test_build_only():
    # tkview-viewer-test --help names --bench; the installed program, the
    # same program without the test build's extension, does not.
    p = subprocess.run([VIEWER, '--help'], stdout=subprocess.PIPE, timeout=300)
    assert p.returncode == 0 and b'--bench PATH' in p.stdout, p.stdout
    if INSTALLED:
        p = subprocess.run([INSTALLED, '--help'], stdout=subprocess.PIPE, timeout=300)
        assert p.returncode == 0 and b'Usage: tkview-viewer' in p.stdout, p.stdout
        assert b'--bench' not in p.stdout, p.stdout



@test
def a_corrupt_bundle_shows_the_error_in_the_window():
    w = S.wait_window(0)
    assert w['state'] == 'error', w['state']
    assert w['error_title'] == 'Could not open %s' % corrupt, w['error_title']
    text = w['error_text']
    # What tk_bundle_load() reported, file by file.
    assert 'Nothing could be loaded from' in text, text
    assert 'manifest.json' in text and 'not a tkview bundle manifest' in text, text
    assert 'x.ttgir' in text and 'binary data' in text, text
    assert w['error_visible'] is True
    path = os.path.join(artefact_dir(), 'viewer-error.png')
    S.screenshot(path, window=w['id'])
    assert viewer.poll() is None


@test
def the_error_window_is_reused_for_the_next_bundle():
    S.activate('open-path', "<'%s'>" % damaged)
    w = S.wait_window(0)
    assert len(S.state()['windows']) == 1
    assert w['state'] == 'ready' and w['kernel']['name'] == 'add_kernel', w
    # The PTX could not be read: a warning, and the other stages are there.
    assert w['problems'] >= 1, w['problems']
    assert 'PTX' not in w['meta'] and 'TTGIR: add_kernel.ttgir' in w['meta'], w['meta']
    S.activate('select-source-location', "<('vector_add.py', uint32 16)>", window=w['id'])
    S.activate('bind-view.stage', "<'ptx'>", window=w['id'])
    w = S.state()['windows'][0]
    assert w['bind']['primary']['stage'] == 'ttgir' and 'ptx' in w['last_error'], w
    # add_kernel.ttgir 29-34, of which 31 (^bb0) and 34 (the `})` that closes the
    # reduce) are no instructions (tests/viewer/test_viewer_bind.py reads them)
    assert w['bind']['primary']['matches'] == [29, 30, 32, 33]
    assert w['bind']['primary']['context'] == [31, 34]


@test
def a_missing_path_is_an_error_page_too():
    S.activate('new-window')
    S.activate('open-path', "<'%s'>" % os.path.join(work, 'no-such-folder'))
    w = S.wait_window(1)
    assert w['state'] == 'error' and 'no-such-folder' in w['error_text'], w
    assert viewer.poll() is None


@test
def a_folder_of_pass_dumps_alone_opens_without_stages():
    # vector_add's MLIR_DUMP_PATH file and stderr, nothing else: one kernel
    # with no final stage (docs/bundle.md), its 264 passes (tkview passes).
    va = os.path.join(os.environ.get('TK_TEST_DUMPS', ''), 'vector_add')
    if not os.path.exists(os.path.join(va, 'stderr.txt')):
        print('# no shared vector_add capture: the pass-dumps-only folder is not tried')
        return
    po = os.path.join(work, 'passes-only')
    os.makedirs(po)
    for f in ('mlir_passes.txt', 'stderr.txt'):
        shutil.copy(os.path.join(va, f), po)
    S.activate('new-window')
    S.activate('open-path', "<'%s'>" % po)
    w = S.wait_window(2)
    assert w['state'] == 'ready' and w['kernel']['name'] == 'add_kernel', w
    # no IR to bind: it opens on the passes
    assert w['mode'] == 'passes', w['mode']
    for st in ('ttir', 'ttgir', 'llir', 'ptx', 'sass'):
        S.activate('bind-view.stage', "<'%s'>" % st, window=w['id'])
    S.activate('select-source-location', "<('vector_add.py', uint32 16)>", window=w['id'])
    S.activate('mode', "<'passes'>", window=w['id'])
    deadline = time.time() + 120
    while True:
        p = S.state()['windows'][2]['passes']
        if p['state'] not in ('loading', 'idle') or time.time() > deadline:
            break
        time.sleep(0.05)
    assert p['state'] == 'ready' and len(p['entries']) == 264, (p['state'], len(p.get('entries', [])))
    assert viewer.poll() is None


@test
def a_hostile_bundle_never_shows_a_file_outside_it():
    n = len(S.state()['windows'])
    S.activate('new-window')
    S.activate('open-path', "<'%s'>" % hostile)
    w = S.wait_window(n)
    assert w['state'] == 'ready' and w['kernel']['name'] == 'add_kernel', w
    S.activate('bind-view.stage', "<'ttgir'>", window=w['id'])
    S.activate('select-source-location', "<('secret.py', uint32 16)>", window=w['id'])
    b = S.state()['windows'][n]['bind']
    # Bound by the location's path:line (add_kernel.ttgir lines 29-34, as
    # for vector_add.py:16: the instructions, with the block header of line
    # 31 `^bb0(...)` and the `})` of line 34 as context), the file itself
    # never read.
    assert b['anchor'] == {'kind': 'source', 'file': secret, 'line': 16}, b['anchor']
    assert b['primary']['matches'] == [29, 30, 32, 33], b['primary']
    assert b['primary']['context'] == [31, 34], b['primary']
    assert b['source']['file'] == secret and b['source']['resolved'] is None, b['source']
    assert b['source']['line_count'] != 40, b['source']
    assert viewer.poll() is None


@test
def quits_cleanly():
    rc = S.quit(viewer)
    log = S.log(viewer)
    assert rc == 0, (rc, log)
    # No GLib criticals, and no complaint of the viewer's own on the way.
    assert 'CRITICAL' not in log, log
    assert not re.search(r'^tkview-viewer: ', log, re.M), log


S.close()
shutil.rmtree(work, ignore_errors=True)
sys.exit(tap())
