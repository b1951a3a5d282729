"""`tkview info` and `tkview bind` of several builds, side by side.

Issue 25's command-line targets (<= 10 ms each, and never slower than the
build of 1fece7b) measured for BUILD and every --base build in the same
turns: the best wall time and the best CPU time (user + system, all
threads) of --runs turns, and with --instr the instructions callgrind
counts (all threads), which do not move with the machine's load.  It
asserts nothing: it prints each figure and its ratio to each base.

Usage: cli_bases.py [--base BUILD]... [--runs N] [--instr] [--bind-line STAGE:LINE]...
                    BUILD [CAPTURE ...]
  default captures: sample_dumps/attention_fwd, and the first base's
  tests/dumps/{persistent_tma_matmul,compiled_block,autotuned_matmul}
  (raw capture folders with their pass dumps); default bind line ttgir:20
  (what bench/targets.py binds), add others with --bind-line.
  --rebundle: measure each capture as BUILD's `tkview bundle` saves it
  (a capture made now: format 4, each pass dump slice with its stored
  index) instead of as it lies; a build that cannot read that bundle
  (1fece7b predates format 4) is measured on the capture as it lies, and
  its line says so.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--base', action='append', default=[], help='a baseline build (repeatable)')
ap.add_argument('--runs', type=int, default=7)
ap.add_argument('--instr', action='store_true', help='callgrind instruction counts too')
ap.add_argument('--bind-line', action='append', default=[], help='STAGE:LINE (repeatable)')
ap.add_argument('--rebundle', action='store_true',
                help="measure each capture as this build's `tkview bundle` saves it")
ap.add_argument('build')
ap.add_argument('captures', nargs='*')
args = ap.parse_args()
builds = [('this', args.build)] + [(os.path.basename(b.rstrip('/')), b) for b in args.base]
dumps = os.path.join((args.base or [args.build])[0], 'tests', 'dumps')
captures = args.captures or [os.path.join(ROOT, 'sample_dumps', 'attention_fwd'),
                             'persistent_tma_matmul', 'compiled_block', 'autotuned_matmul']
captures = [c if os.path.exists(c) else os.path.join(dumps, c) for c in captures]
lines = args.bind_line or ['ttgir:20']
tmp = tempfile.mkdtemp(prefix='tkview-cli-bases-')


def rebundled(cap):
    """CAP saved by this build's `tkview bundle` under TMP (once)."""
    out = os.path.join(tmp, 'bundle-%d-%s' % (len(captures_done), os.path.basename(cap.rstrip('/'))))
    captures_done.append(out)
    subprocess.run([os.path.join(args.build, 'cli', 'tkview'), 'bundle', '-q', cap, '-o', out],
                   check=True, stdout=subprocess.DEVNULL)
    return out


captures_done = []


def loads(cmd):
    """Whether COMMAND's build can load what it is given (not exit 3)."""
    return subprocess.run(cmd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode != 3


def run_once(cmd):
    """Wall and CPU seconds (user + system of the child and its threads)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rc > 1:  # bind exits 1 when the line binds to nothing: the work is the same
        sys.exit('%s: exit status %d' % (' '.join(cmd), rc))
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def instructions(cmd):
    return callgrind.instructions(cmd, tmp)


def measure(name, argv, original=None):
    """ARGV run by each build; ORIGINAL: the same on the capture as it lies,
    for a build that cannot load ARGV's (a re-bundled capture)."""
    cmds = {b: [os.path.join(d, 'cli', 'tkview'), *argv] for b, d in builds}
    as_it_lies = set()
    for b, d in builds:
        if args.rebundle and b != 'this' and not loads(cmds[b]):
            cmds[b] = [os.path.join(d, 'cli', 'tkview'), *original]
            as_it_lies.add(b)
    wall = {b: float('inf') for b in cmds}
    cpu = dict(wall)
    for _ in range(args.runs):
        for b, c in cmds.items():
            w, u = run_once(c)
            wall[b] = min(wall[b], w)
            cpu[b] = min(cpu[b], u)
    ir = {b: instructions(c) for b, c in cmds.items()} if args.instr else {}
    print('  %s' % name)
    for b, _ in builds:
        line = '    %-16s wall %7.1f ms  cpu %7.1f ms' % (b, wall[b] * 1e3, cpu[b] * 1e3)
        if ir.get(b):
            line += '  %8.1f M instr' % (ir[b] / 1e6)
        if b != 'this':
            line += '   this/%s: wall %.2fx cpu %.2fx' % (b, wall['this'] / wall[b],
                                                      cpu['this'] / cpu[b])
            if ir.get(b) and ir.get('this'):
                line += ' instr %.2fx' % (ir['this'] / ir[b])
        if b in as_it_lies:
            line += '  (on the capture as it lies: it cannot read the bundle)'
        print(line)


for cap in captures:
    src = cap
    if args.rebundle:
        cap = rebundled(src)
        print('%s (re-bundled by this build):' % os.path.basename(src.rstrip('/')))
    else:
        print('%s:' % os.path.basename(cap.rstrip('/')))
    measure('info (target 10 ms)', ['info', cap], ['info', src])
    for ln in lines:
        measure('bind --kernel 0 --ir %s (target 10 ms)' % ln,
                ['bind', cap, '--kernel', '0', '--ir', ln],
                ['bind', src, '--kernel', '0', '--ir', ln])
