#!/usr/bin/env python3
"""Peak memory and time of every command on a capture with one huge pass
dump (issue 11): a kernel with a big tile makes one MLIR dump of 2.1 GB (the
LLVM dialect right after ConvertTritonGPUToLLVM, lines up to 32 KB), and
memory must grow with lines, not bytes.

The capture is made by bench/make_big_capture.py from the shared vector_add
in a folder of its own (removed afterwards unless --keep).  Each command runs
--runs times, its peak memory from wait4(); the table gives its best time, its peak
resident memory (the largest of the runs) and both next to `wc -l` over the
same pass dump files, timed in the same turns:

  passes    tkview passes CAPTURE
  diff-in   tkview diff CAPTURE --pass N   (ConvertTritonGPUToLLVM: makes the
                                            big dump from a small TTGIR one)
  diff-out  tkview diff CAPTURE --pass N+1 (Canonicalizer: folds it away)
  diff-json tkview diff CAPTURE --pass N --json
  history   tkview history CAPTURE --source vector_add.py:16
  html      tkview --html OUT CAPTURE
  viewer    tkview-viewer-test --bench CAPTURE  (pass mode included; under
                                            xvfb-run when there is no display)

Usage: bench/big_dump.py BUILD_DIR [--mb 2100] [--runs 3] [--dir DIR] [--keep]
                         [--only passes,diff-in,...] [--max-rss-mib N]
  BUILD_DIR       a meson build folder (release for times; any for memory)
  --mb            size of the big dump in MB (CI: 200)
  --dir           where the capture goes (default: a new folder in $TMPDIR)
  --only          the commands to run (default: all that can run here)
  --max-rss-mib   exit 1 when a command's peak resident memory is above N MiB
                  (the CI test: 128 MiB on a 200 MB dump)
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd, env=None):
    """(seconds, peak RSS in KiB, exit status) of CMD, its output dropped.

    The peak comes from wait4(), as /usr/bin/time gets it (ru_maxrss of the
    child and of the descendants it waited for: xvfb-run's viewer counts), so
    the measurement needs nothing but Python."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    p.stderr.close()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return dt, ru.ru_maxrss, p.returncode, err.decode(errors='replace')


def big_pass(tkview, capture):
    """The index of ConvertTritonGPUToLLVM (the pass that makes the big dump)."""
    out = subprocess.run([tkview, 'passes', capture, '--json'], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=True).stdout
    ps = json.loads(out)['kernels'][0]['passes']
    return next(p['index'] for p in ps if p['pass'] == 'ConvertTritonGPUToLLVM')


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('build')
    ap.add_argument('--mb', type=float, default=2100.0)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--dir')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--only')
    ap.add_argument('--max-rss-mib', type=float)
    a = ap.parse_args()

    tkview = os.path.join(a.build, 'cli', 'tkview')
    viewer = os.path.join(a.build, 'viewer', 'tkview-viewer-test')  # --bench: the test build
    seed = os.path.join(a.build, 'tests', 'dumps', 'vector_add')
    work = a.dir or tempfile.mkdtemp(prefix='tkview-big-')
    capture = os.path.join(work, 'capture')
    report = os.path.join(work, 'report')
    try:
        if not os.path.isdir(capture):
            subprocess.run([sys.executable, os.path.join(HERE, 'make_big_capture.py'), seed,
                            capture, '--mb', str(a.mb)], check=True)
        files = [os.path.join(capture, f) for f in ('mlir_passes.txt', 'stderr.txt')]
        size = sum(os.path.getsize(f) for f in files)
        n = big_pass(tkview, capture)
        commands = {
            'passes': [tkview, 'passes', capture],
            'diff-in': [tkview, 'diff', capture, '--pass', str(n), '--color=never'],
            'diff-out': [tkview, 'diff', capture, '--pass', str(n + 1), '--color=never'],
            'diff-json': [tkview, 'diff', capture, '--pass', str(n), '--json'],
            'history': [tkview, 'history', capture, '--source', 'vector_add.py:16'],
            'html': [tkview, '--html', report, capture, '--force'],
        }
        env = dict(os.environ)
        if 'ASAN_OPTIONS' in env:
            # Under AddressSanitizer (the CI's sanitized build) freed memory
            # is held in its quarantine, 256 MB by default: a command that
            # prints a giant diff a line at a time frees as much as it
            # prints, and the quarantine, not the command, would be measured.
            env['ASAN_OPTIONS'] += ':quarantine_size_mb=16'
        if os.path.exists(viewer):
            cmd = [viewer, '--bench', capture]
            if not os.environ.get('DISPLAY') and shutil.which('xvfb-run'):
                cmd = ['xvfb-run', '-a', '-s', '-screen 0 1600x1000x24'] + cmd
                env['GDK_BACKEND'] = 'x11'
            if os.environ.get('DISPLAY') or shutil.which('xvfb-run'):
                commands['viewer'] = cmd
        only = a.only.split(',') if a.only else list(commands)
        print('capture: %s, pass dumps %.1f MB (%s); the big pass is %d' %
              (capture, size / 1e6, ', '.join(os.path.basename(f) for f in files), n))
        print('%-9s %9s %9s %7s %11s %9s' % ('command', 'best s', 'wc -l s', 'vs wc',
                                             'peak MiB', 'MiB/GB'))
        failed = False
        for name in only:
            if name not in commands:
                print('%-9s (cannot run here)' % name)
                continue
            best, wc, peak = 1e9, 1e9, 0
            for _ in range(a.runs):
                t0 = time.perf_counter()
                subprocess.run(['wc', '-l'] + files, stdout=subprocess.DEVNULL, check=True)
                wc = min(wc, time.perf_counter() - t0)
                dt, rss, rc, err = timed(commands[name], env)
                # diff exits 1 when nothing changed, history 1 when no pass
                # touched the line: both are answers, not failures.
                if rc not in (0, 1):
                    print('%s failed (exit %d): %s' % (name, rc, err[-2000:]), file=sys.stderr)
                    failed = True
                best = min(best, dt)
                peak = max(peak, rss)
            mib = peak / 1024.0
            print('%-9s %9.2f %9.3f %6.1fx %11.1f %9.1f' % (name, best, wc, best / wc, mib,
                                                              mib / (size / 1e9)))
            if a.max_rss_mib and mib > a.max_rss_mib:
                print('%s: peak resident memory %.1f MiB is over %.0f MiB' %
                      (name, mib, a.max_rss_mib), file=sys.stderr)
                failed = True
        return 1 if failed else 0
    finally:
        if not a.keep and not a.dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
