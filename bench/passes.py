#!/usr/bin/env python3
"""Pass timelines at scale: for each capture, the seconds to split, normalize
and diff every pass of every kernel (bench_passes: tkview's timeline build),
the ratio to `wc -l` over the same pass dump files, the ratio to
`git diff --no-index --histogram` over the same consecutive pass pairs (one
git process per pair, as a person would run it), and the peak memory of the
build next to the largest dump.

Usage: bench/passes.py BUILD_DIR DUMPS_DIR [CAPTURE...]
  BUILD_DIR  a meson build folder (release or debugoptimized, no sanitizers)
  DUMPS_DIR  the unpacked captures (BUILD_DIR/tests/dumps)
  CAPTURE    default: persistent_tma_matmul compiled_block

Targets (issue 3): at most 20x `wc -l`; faster than git in total; peak
growth about two dumps' worth (two texts and their normalizations), not
growing with the number of passes.
"""
import os
import subprocess
import sys
import tempfile
import time


def wc_seconds(files, repeat=3):
    best = 1e9
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(['wc', '-l', *files], stdout=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - t0)
    return best


def git_seconds(pairs_dir):
    with open(os.path.join(pairs_dir, 'pairs.txt')) as f:
        pairs = [line.split() for line in f if line.strip()]
    dumps = os.path.join(pairs_dir, 'dumps')
    t0 = time.perf_counter()
    for a, b in pairs:
        subprocess.run(['git', 'diff', '--no-index', '--histogram',
                        os.path.join(dumps, a), os.path.join(dumps, b)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return len(pairs), time.perf_counter() - t0


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    build, dumps = sys.argv[1], sys.argv[2]
    captures = sys.argv[3:] or ['persistent_tma_matmul', 'compiled_block']
    bench = os.path.join(build, 'bench', 'bench_passes')
    print('%-22s %6s %6s %7s %7s %8s %7s %6s %8s %8s %9s %9s' % (
        'capture', 'MB', 'passes', 'ours s', 'wc -l s', 'vs wc', 'pairs', 'git s',
        'git/ours', 'grew MB', 'max dump', 'grew/max'))
    for name in captures:
        path = os.path.join(dumps, name)
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run([bench, '--repeat', '5', '--write-pairs', tmp, path],
                                 stdout=subprocess.PIPE, check=True, text=True).stdout
            lines = out.splitlines()
            cols = lines[1].split()
            files = [l.split(' ', 2)[2] for l in lines if l.startswith('# file ')]
            mb, passes, ours = float(cols[1]), int(cols[3]), float(cols[6])
            grew, largest = float(cols[13]), float(cols[14])
            wc = wc_seconds(files)
            n_pairs, git = git_seconds(tmp)
        print('%-22s %6.1f %6d %7.3f %7.4f %7.1fx %7d %6.2f %7.1fx %8.1f %6.1f MB %8.1fx' % (
            name, mb, passes, ours, wc, ours / wc, n_pairs, git, git / ours, grew, largest,
            grew / largest if largest else 0))
        for l in lines[2:]:
            if not l.startswith('# file '):
                print('  ' + l)
    return 0


if __name__ == '__main__':
    sys.exit(main())
