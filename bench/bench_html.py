#!/usr/bin/env python3
"""Size and speed of `tkview --html` (issue 4).

For each capture: generation seconds (best of N runs) against `wc -l` over
the same inputs (final stages and pass dumps), and the report's bytes
against the budget 3 x (final-stage text) + (xz -6 size of the pass dumps).
The two commands take turns, so that both are timed in the same moments of
a shared machine; the medians say how noisy it was.

Usage: bench_html.py BUILD_DIR DUMPS_DIR [CAPTURE ...]
  (default captures: persistent_tma_matmul compiled_block)
"""
import json
import os
import subprocess
import sys
import tempfile
import time

build, dumps = sys.argv[1], sys.argv[2]
captures = sys.argv[3:] or ['persistent_tma_matmul', 'compiled_block']
tkview = os.path.join(build, 'cli', 'tkview')
RUNS = 9


def timed(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def turns(a, b):
    """RUNS timings of commands A and B, taking turns."""
    ta, tb = [], []
    for _ in range(RUNS):
        ta.append(timed(a))
        tb.append(timed(b))
    return sorted(ta), sorted(tb)


def du(d):
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)


print('%-22s %8s %8s %6s %10s %10s %10s %10s %6s   %s' % (
    'capture', 'html s', 'wc -l s', 'ratio', 'out bytes', 'stages', 'xz(pass)', 'budget', 'of it',
    'medians: html s, wc -l s, ratio'))
for cap in captures:
    path = os.path.join(dumps, cap)
    info = json.loads(subprocess.run([tkview, 'info', path, '--json', '--quiet'], check=True,
                                     capture_output=True).stdout)
    stages = [s['path'] for k in info['kernels'] for s in k['stages'].values() if s]
    passes = [p['path'] for p in info.get('pass_files', [])] or \
        [os.path.join(path, f) for f in ('mlir_passes.txt', 'stderr.txt')
         if os.path.exists(os.path.join(path, f))]
    stage_bytes = sum(os.path.getsize(p) for p in stages)
    xz = sum(len(subprocess.run(['xz', '-6', '-T2', '-c', p], check=True,
                                capture_output=True).stdout) for p in passes)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'r')
        gens, wcs = turns([tkview, '--html', out, path, '--quiet', '--force'],
                          ['wc', '-l', *stages, *passes])
        size = du(out)
    gen, wc = gens[0], wcs[0]
    gm, wm = gens[RUNS // 2], wcs[RUNS // 2]
    budget = 3 * stage_bytes + xz
    print('%-22s %8.3f %8.3f %5.1fx %10d %10d %10d %10d %5.0f%%   %.3f %.3f %.1fx' % (
        cap, gen, wc, gen / wc, size, stage_bytes, xz, budget, 100.0 * size / budget,
        gm, wm, gm / wm))
print('targets: ratio <= 20x; out bytes <= budget = 3 x stages + xz(pass dumps)')
