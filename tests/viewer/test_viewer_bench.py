#!/usr/bin/env python3
"""`tkview-viewer --bench` on the largest shared kernel, under Xvfb.

persistent_tma_matmul's matmul_tma_persistent has the most stage lines of the
shared captures (5501 in .ttir/.ttgir/.llir/.ptx/.sass_gi: wc -l).  The
benchmark opens it in a real window and times the first view, every
selection, the find bar over LLVM IR beside SASS and the source, and in
pass mode the two biggest diffs and the find bar over them (the biggest,
pass 64 of its LLVM pipeline, has 6256 rows before and 3250 after: the
"find over a 6000-line stage" of issue 14).  This test checks that it ran
over what it should and prints the numbers; it asserts no time, wall-clock
or CPU: a timing in a test fails on a busy machine and says nothing on a
quiet one (issue 25).  The targets (a selection's p95 <= 16 ms, a find's
<= 50 ms, the first view <= 150 ms) are bench/viewer_bench.py's, which
prints each figure beside a baseline measured in the same run.

Usage: test_viewer_bench.py TKVIEW-VIEWER-TEST TKVIEW   (TK_TEST_DUMPS: the dumps)
"""
import json
import os
import subprocess
import sys

from viewer_harness import Session, test, tap, skip_all, missing_tools

VIEWER = sys.argv[1]
DUMPS = os.environ['TK_TEST_DUMPS']

if missing_tools():
    skip_all('needs %s' % ', '.join(missing_tools()))

S = Session()
env = dict(S.env)
env.pop('GSK_RENDERER')  # the viewer's own choice, as a user gets it
# Pass mode with its two biggest diffs only, the biggest alone in a
# sanitized build: there each diff, and the background highlighting of its
# text that the next step waits for, takes one to two minutes
# (fast_unwind_on_malloc=0 makes every allocation slow).
FAST = os.environ.get('TKV_TEST_OPTIMIZED') == '1'
PASSES = 2 if FAST else 1
P = subprocess.run([VIEWER, '--bench', os.path.join(DUMPS, 'persistent_tma_matmul'), '--json',
                    '--passes', str(PASSES)],
                   env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1400)
S.close()
OUT = P.stdout.decode()
ERR = P.stderr.decode()


@test
def bench_runs_on_the_largest_kernel():
    assert P.returncode in (0, 1), (P.returncode, ERR)
    r = json.loads(OUT)
    for line in json.dumps(r, indent=1).splitlines():
        print('# ' + line)
    assert r['kernel'].startswith('matmul_tma_persistent'), r['kernel']
    assert r['kernel_lines'] == 5501, r['kernel_lines']
    # Under Xvfb there is no direct rendering: the viewer draws with cairo.
    assert r['renderer'] == 'cairo', r['renderer']
    assert r['first_view_ms'] > 0, r['first_view_ms']
    # persistent_tma_matmul.py lines with TTGIR code: one step each.
    assert r['select source line (TTGIR)']['n'] >= 20, r
    assert r['select IR line']['n'] >= 100, r
    assert r['switch stage']['n'] == 5, r
    for k in ('select source line (TTGIR)', 'select IR line'):
        assert 0 < r[k]['median_ms'] <= r[k]['p95_ms'] <= r[k]['max_ms'], r[k]
    # Pass mode: opened once, then the biggest changes selected.
    assert r['open pass mode (timeline, first diff)']['n'] == 1, r
    assert r['select a pass (its diff, biggest first)']['n'] == PASSES, r
    # The find bar: 8 queries over source + LLVM IR + SASS (62 + 2000 + 1661
    # lines), 3 over each diff (the biggest: 6256 + 3250 rows and the source).
    assert r['find (source, LLIR, SASS)']['n'] == 8, r
    assert r['find in a pass diff']['n'] == 3 * PASSES, r
    assert r['find_lines_max'] >= 3700, r['find_lines_max']
    assert r['find_diff_lines_max'] >= 9500, r['find_diff_lines_max']
    assert r['max_rss_kb'] > 0, r
    for k in ('select source line (TTGIR)', 'select source line (LLIR + SASS)', 'select IR line',
              'switch stage', 'find (source, LLIR, SASS)', 'find in a pass diff'):
        print('# %-34s p95 %7.2f ms (wall), %6.2f ms (main thread CPU); not asserted'
              % (k, r[k]['p95_ms'], r[k]['cpu_p95_ms']))


@test
def no_critical_on_the_way():
    assert 'CRITICAL' not in ERR, ERR


sys.exit(tap())
