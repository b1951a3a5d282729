#!/usr/bin/env python3
"""`tkview-viewer --bench` on the largest shared kernel, under Xvfb.

persistent_tma_matmul's matmul_tma_persistent has the most stage lines of the
shared captures (5501 in .ttir/.ttgir/.llir/.ptx/.sass_gi: wc -l).  The
benchmark opens it in a real window and times the first view, every
selection, the find bar over LLVM IR beside SASS and the source, and in
pass mode the two biggest diffs and the find bar over them (the biggest,
pass 64 of its LLVM pipeline, has 6256 rows before and 3250 after: the
"find over a 6000-line stage" of issue 14).  This test checks that it ran
over what it should and prints the numbers.

Budgets: a selection's p95 <= 16 ms, a find's <= 50 ms, from the action to
the end of the next frame.  A shared machine inflates wall-clock times
(another build, a fuzzer: a p95 of 100 ms at a load average of 10 where a
quiet run gives 14), so the wall-clock targets are enforced only with
TKV_BENCH_ENFORCE=1; what is always asserted, in a build that is neither
sanitized nor unoptimized (TKV_BENCH_ASSERT_CPU=1, set by meson), is the
main thread's CPU time of the same steps at p95, which other work on the
machine inflates far less.

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
FAST = os.environ.get('TKV_BENCH_ASSERT_CPU') == '1'
PASSES = 2 if FAST else 1
P = subprocess.run([VIEWER, '--bench', os.path.join(DUMPS, 'persistent_tma_matmul'), '--json',
                    '--passes', str(PASSES)],
                   env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
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
    assert 0 < r['first_view_ms'] < 60000
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
    if os.environ.get('TKV_BENCH_ENFORCE') == '1':
        assert r['targets_met'] and P.returncode == 0, r


@test
def p95_within_budget_in_main_thread_time():
    r = json.loads(OUT)
    budget = {'select source line (TTGIR)': 16, 'select source line (LLIR + SASS)': 16,
              'select IR line': 16, 'switch stage': 16, 'find (source, LLIR, SASS)': 50,
              'find in a pass diff': 50}
    for k, ms in budget.items():
        print('# %-34s p95 %7.2f ms (wall), %6.2f ms (main thread CPU); budget %d ms'
              % (k, r[k]['p95_ms'], r[k]['cpu_p95_ms'], ms))
    if not FAST:
        print('# (not asserted: a sanitized or unoptimized build)')
        return
    over = {k: r[k]['cpu_p95_ms'] for k, ms in budget.items() if r[k]['cpu_p95_ms'] > ms}
    assert not over, over


@test
def no_critical_on_the_way():
    assert 'CRITICAL' not in ERR, ERR


sys.exit(tap())
