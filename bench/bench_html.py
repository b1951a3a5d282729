#!/usr/bin/env python3
"""Size and speed of `tkview --html` (issue 4).

For each capture: generation seconds (best of N runs) against `wc -l` over
the same inputs (final stages and pass dumps), and the report's bytes
against the budget 3 x (final-stage text) + (xz -6 size of the pass dumps).

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
RUNS = 5


def best(cmd):
    t = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t.append(time.perf_counter() - t0)
    return min(t)


def du(d):
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)


print('%-22s %8s %8s %6s %10s %10s %10s %10s %6s' % (
    'capture', 'html s', 'wc -l s', 'ratio', 'out bytes', 'stages', 'xz(pass)', 'budget', 'of it'))
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
        gen = best([tkview, '--html', out, path, '--quiet', '--force'])
        size = du(out)
    wc = best(['wc', '-l', *stages, *passes])
    budget = 3 * stage_bytes + xz
    print('%-22s %8.3f %8.3f %5.1fx %10d %10d %10d %10d %5.0f%%' % (
        cap, gen, wc, gen / wc, size, stage_bytes, xz, budget, 100.0 * size / budget))
print('targets: ratio <= 20x; out bytes <= budget = 3 x stages + xz(pass dumps)')
