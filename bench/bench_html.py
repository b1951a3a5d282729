#!/usr/bin/env python3
"""Size and speed of `tkview --html` (issues 4 and 11).

For each capture: generation seconds (best of N runs) against `wc -l` over
the same inputs (final stages and pass dumps), and the report's bytes
against the budget 3 x (final-stage text) + (xz -6 size of the pass dumps).
The two commands take turns, so that both are timed in the same moments of
a shared machine; the medians say how noisy it was.  The CPU seconds
(user + system, all threads) of the best run are printed too: on a machine
that other work shares, they move less than the wall time does, and their
ratio to the wall time says how much of the run two cores shared.

A bundle's pass dumps are gzip files: its baseline counts their lines as
`gzip -dc FILE | wc -l` (counting the newlines of compressed bytes would
mean nothing), so that it reads the same text the report reads.

Usage: bench_html.py [--runs N] BUILD_DIR DUMPS_DIR [CAPTURE ...]
  (default captures: persistent_tma_matmul compiled_block; a CAPTURE that is
  a path is taken as it is, else it names a folder of DUMPS_DIR)
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--runs', type=int, default=9, help='runs of each command (default 9)')
ap.add_argument('build')
ap.add_argument('dumps')
ap.add_argument('captures', nargs='*')
args = ap.parse_args()
build, dumps, RUNS = args.build, args.dumps, args.runs
captures = args.captures or ['persistent_tma_matmul', 'compiled_block']
tkview = os.path.join(build, 'cli', 'tkview')


def timed(cmd):
    """Wall seconds and CPU seconds (user + system) of CMD."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit('%s: exit status %d' % (' '.join(cmd), p.returncode))
    return wall, ru.ru_utime + ru.ru_stime


def turns(a, b):
    """RUNS timings (wall, cpu) of commands A and B, taking turns; sorted by
    wall time."""
    ta, tb = [], []
    for _ in range(RUNS):
        ta.append(timed(a))
        tb.append(timed(b))
    return sorted(ta), sorted(tb)


def du(d):
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)


def line_count_cmd(files):
    """`wc -l` over FILES; gzip files decompressed into it."""
    plain = [f for f in files if not f.endswith('.gz')]
    gz = [f for f in files if f.endswith('.gz')]
    if not gz:
        return ['wc', '-l', *plain]
    parts = []
    if plain:
        parts.append('wc -l ' + ' '.join(map(shlex.quote, plain)))
    parts.append('gzip -dc ' + ' '.join(map(shlex.quote, gz)) + ' | wc -l')
    return ['sh', '-c', '; '.join(parts)]


def xz_size(path):
    text = subprocess.run(['gzip', '-dc', path], check=True, capture_output=True).stdout \
        if path.endswith('.gz') else open(path, 'rb').read()
    return len(subprocess.run(['xz', '-6', '-T2', '-c'], input=text, check=True,
                              capture_output=True).stdout)


print('%-22s %8s %8s %6s %7s %10s %10s %10s %10s %6s   %s' % (
    'capture', 'html s', 'wc -l s', 'ratio', 'cpu s', 'out bytes', 'stages', 'xz(pass)',
    'budget', 'of it', 'medians: html s, wc -l s, ratio'))
for cap in captures:
    path = os.path.join(dumps, cap)
    info = json.loads(subprocess.run([tkview, 'info', path, '--json', '--quiet'], check=True,
                                     capture_output=True).stdout)
    stages = [s['path'] for k in info['kernels'] for s in k['stages'].values() if s]
    passes = [p['path'] for p in info.get('pass_files', [])] or \
        [os.path.join(path, f) for f in ('mlir_passes.txt', 'stderr.txt')
         if os.path.exists(os.path.join(path, f))]
    stage_bytes = sum(os.path.getsize(p) for p in stages)
    xz = sum(xz_size(p) for p in passes)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'r')
        gens, wcs = turns([tkview, '--html', out, path, '--quiet', '--force'],
                          line_count_cmd(stages + passes))
        size = du(out)
    (gen, cpu), (wc, _) = gens[0], wcs[0]
    gm, wm = gens[RUNS // 2][0], wcs[RUNS // 2][0]
    budget = 3 * stage_bytes + xz
    name = cap if len(cap) <= 22 else '...' + cap[-19:]
    print('%-22s %8.3f %8.3f %5.1fx %7.3f %10d %10d %10d %10d %5.0f%%   %.3f %.3f %.1fx' % (
        name, gen, wc, gen / wc, cpu, size, stage_bytes, xz, budget, 100.0 * size / budget,
        gm, wm, gm / wm))
print('targets: ratio <= 10x; out bytes <= budget = 3 x stages + xz(pass dumps)')
