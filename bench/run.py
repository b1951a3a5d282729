#!/usr/bin/env python3
"""Speed and memory of loading and binding, against `wc -l` on the same files.

Usage: bench/run.py BUILD_DIR DUMPS_DIR [CAPTURE...]
  BUILD_DIR  a meson build folder (a release or debugoptimized build, no sanitizers)
  DUMPS_DIR  the unpacked shared captures (BUILD_DIR/tests/dumps after a build)

For each capture (default: persistent_tma_matmul and compiled_block, the
largest), it prints:
  - process level: best wall time of `tkview refs CAPTURE --json` (load every
    stage of every kernel, parse every location, build every binding index,
    write every bound source line as JSON; `info` would also index the pass
    dumps, which is issue 3's bench) vs best of `wc -l` over the stage files,
    with the ratio, MB/s of stage text, and peak RSS over input bytes;
  - library level (bench_bind): the load + bind alone, in one process, against a
    memchr line count of the same files in the same process.
"""
import json
import os
import subprocess
import sys
import time

REPEAT = 15


def best_of(argv, check=True):
    """Best wall time and the peak RSS (bytes) of running ARGV REPEAT times."""
    best, rss = float('inf'), 0
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        t = time.perf_counter() - t0
        if check and status != 0:
            sys.exit('%s failed (%d)' % (argv, status))
        best, rss = min(best, t), max(rss, ru.ru_maxrss * 1024)
    return best, rss


def main():
    build, dumps = sys.argv[1], sys.argv[2]
    captures = sys.argv[3:] or ['persistent_tma_matmul', 'compiled_block']
    tkview = os.path.join(build, 'cli', 'tkview')
    bench_bind = os.path.join(build, 'bench', 'bench_bind')
    print('process level (best of %d):' % REPEAT)
    print('%-22s %7s %6s %9s %9s %7s %8s %8s %8s' % (
        'capture', 'kernels', 'MB', 'refs s', 'wc -l s', 'ratio', 'MB/s', 'RSS MB', 'base MB'))
    print('(base: peak RSS of the same program failing at once, before reading anything)')
    for cap in captures:
        path = os.path.join(dumps, cap)
        info = json.loads(subprocess.run([tkview, 'info', path, '--json', '--quiet'],
                                         check=True, stdout=subprocess.PIPE).stdout)
        files = [s['path'] for k in info['kernels'] for s in k['stages'].values() if s]
        size = sum(os.path.getsize(f) for f in files)
        t_tk, rss = best_of([tkview, 'refs', path, '--json', '--quiet'])
        # What the process holds before reading anything: libraries, heap.
        _, rss0 = best_of([tkview, 'info', '/nonexistent', '--quiet'], check=False)
        t_wc, _ = best_of(['wc', '-l', *files])
        print('%-22s %7d %6.2f %9.4f %9.4f %6.1fx %8.1f %8.1f %8.1f' % (
            cap, len(info['kernels']), size / 1e6, t_tk, t_wc, t_tk / t_wc,
            size / 1e6 / t_tk, rss / 1e6, rss0 / 1e6))
    print('\nlibrary level (load + bind only, in one process):')
    subprocess.run([bench_bind, '--repeat', str(REPEAT),
                    *[os.path.join(dumps, c) for c in captures]], check=True)
    # The final stages are small; the readers meet their big inputs in pass
    # dumps.  Each is read as one text, in its own process so RSS is its own.
    print('\nreaders at scale (a whole pass dump read as one stage, best of 3):')
    for kind, rel in [('ttgir', 'persistent_tma_matmul/mlir_passes.txt'),
                      ('llir', 'persistent_tma_matmul/stderr.txt')]:
        subprocess.run([bench_bind, '--repeat', '3', '--stage', kind,
                        os.path.join(dumps, rel)], check=True)


if __name__ == '__main__':
    main()
