"""What capture does after the program ends, without a GPU (issue 25).

`tkview capture` loads the capture folder (kernel files and the pass dumps,
indexed) and writes the bundle (each kernel's slice of the pass dumps
gzip-compressed); `tkview bundle RAWDIR -o OUT` does the same work on a raw
capture, so it is timed here on sample_dumps/raw/*.tar.xz (200-500 MB each
unpacked) or any capture folder.  For each: wall seconds (best of --runs),
CPU seconds (user + system, all threads) and their ratio (how many cores
the run kept busy) of this build and, with --base, of a baseline build in
the same turns; the bundles of both are compared (manifest.json's
"created" aside).  `cat` of the inputs through `gzip -6` is printed as the
cost of compressing them on one core.

Usage: bundle_bench.py [--base BUILD] [--runs N] BUILD [RAW.tar.xz | DIR ...]
  (default: sample_dumps/raw/autotune_matmul.tar.xz)
"""
import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--base')
ap.add_argument('--runs', type=int, default=3)
ap.add_argument('build')
ap.add_argument('captures', nargs='*')
args = ap.parse_args()
caps = args.captures or [os.path.join(ROOT, 'sample_dumps', 'raw', 'autotune_matmul.tar.xz')]
builds = [('new', args.build)] + ([('base', args.base)] if args.base else [])
tmp = tempfile.mkdtemp(prefix='tkview-bundle-bench-')


def timed(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit('%s: exit status %d' % (' '.join(cmd), os.waitstatus_to_exitcode(status)))
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime


def same_bundle(a, b):
    """Whether bundles A and B hold the same files, byte for byte, but for
    manifest.json's "created"."""
    cmp = filecmp.dircmp(a, b)
    stack = [cmp]
    while stack:
        c = stack.pop()
        if c.left_only or c.right_only or c.funny_files:
            return False
        for f in c.diff_files:
            if f != 'manifest.json':
                return False
            strip = lambda p: re.sub(r'"created" : "[^"]*"', '', open(p).read())
            if strip(os.path.join(c.left, f)) != strip(os.path.join(c.right, f)):
                return False
        stack.extend(c.subdirs.values())
    return True


try:
    for cap in caps:
        src = cap
        if cap.endswith('.tar.xz'):
            subprocess.run(['tar', 'xJf', cap, '-C', tmp], check=True)
            src = os.path.join(tmp, os.path.basename(cap)[:-len('.tar.xz')])
        size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(src) for f in fs)
        dumps = [os.path.join(src, f) for f in ('mlir_passes.txt', 'stderr.txt')
                 if os.path.exists(os.path.join(src, f))]
        best = {}
        for _ in range(args.runs):
            for b, d in builds:
                out = os.path.join(tmp, 'out-' + b)
                shutil.rmtree(out, ignore_errors=True)
                w, c = timed([os.path.join(d, 'cli', 'tkview'), 'bundle', src, '-o', out, '--quiet'])
                if b not in best or w < best[b][0]:
                    best[b] = (w, c)
        gz = timed(['sh', '-c', 'cat "$@" | gzip -6 >/dev/null', 'sh', *dumps]) if dumps else None
        print('%s (%.0f MB, %d cores here):' % (os.path.basename(src), size / 1e6, os.cpu_count()))
        for b, (w, c) in best.items():
            print('  %-5s tkview bundle: %6.2f s wall, %6.2f s CPU (%.2f cores busy)' % (b, w, c, c / w))
        if 'base' in best:
            print('  new / base wall: %.2fx; bundles identical: %s' % (
                best['new'][0] / best['base'][0],
                same_bundle(os.path.join(tmp, 'out-new'), os.path.join(tmp, 'out-base'))))
        if gz:
            print('  gzip -6 of the pass dumps on one core: %.2f s wall, %.2f s CPU' % gz)
        shutil.rmtree(src if cap.endswith('.tar.xz') else os.path.join(tmp, 'none'), ignore_errors=True)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
