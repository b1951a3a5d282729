"""Every speed target of issue 25, measured with one command.

For each capture: `tkview info` and `tkview bind` (target 10 ms), the same
of the capture's largest one-kernel folder (Triton's kernel_dump/HASH/ or a
bundle's kernel folder: the issue's "info of the kernel folder"), `tkview
--html` against `wc -l` over the same inputs (target 10x), the viewer's
`--bench` (first view 150 ms, any selection's 95th percentile 16 ms) and the
report in Chromium (bench/report_bench.mjs: kernel page interactive 300 ms,
click to frame p95 50 ms, pass mode entered 300 ms).  With --base BUILD the
same commands of that build run in the same turns (the baseline); --base may
be given twice or more (the first is "base", then "base2", ...: --html and
the report print each; info and the viewer the first); `wc -l` runs in the
same turns too.  Nothing here fails on a figure: it prints the
figure, its baseline and the target.

Wall times are the best of --runs turns; --html prints its best CPU time
(user + sys) too, which a busy machine inflates less.  On a shared machine they move by
2x from run to run; --instr adds the instruction counts of info, bind and
--html under callgrind (valgrind), which do not move with the load.

Usage: targets.py [--base BUILD]... [--runs N] [--instr]
                  [--only info,kernel,html,viewer,report]
                  BUILD [CAPTURE ...]
  default captures: sample_dumps/attention_fwd and BUILD/tests/dumps/
  {persistent_tma_matmul,compiled_block,autotuned_matmul}; a CAPTURE that is
  not a path names a folder of BUILD/tests/dumps.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET = {'info_ms': 10, 'bind_ms': 10, 'html_x_wc': 10, 'first_view_ms': 150,
          'select_p95_ms': 16}

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--base', action='append', default=[],
                help='a baseline build folder, run in the same turns (repeatable)')
ap.add_argument('--runs', type=int, default=7)
ap.add_argument('--instr', action='store_true', help='instruction counts (callgrind) too')
ap.add_argument('--only', default='info,kernel,html,viewer,report')
ap.add_argument('--playwright', help="playwright-core's index.mjs (default: BUILD/npm's, "
                'installed there from npm as the browser tests do)')
ap.add_argument('build')
ap.add_argument('captures', nargs='*')
args = ap.parse_args()
only = set(args.only.split(','))
dumps = os.path.join(args.build, 'tests', 'dumps')
captures = args.captures or [os.path.join(ROOT, 'sample_dumps', 'attention_fwd'),
                             'persistent_tma_matmul', 'compiled_block', 'autotuned_matmul']
captures = [c if os.path.exists(c) else os.path.join(dumps, c) for c in captures]
builds = [('new', args.build)] + [('base' if i == 0 else 'base%d' % (i + 1), b)
                                  for i, b in enumerate(args.base)]
tmp = tempfile.mkdtemp(prefix='tkview-targets-')


def tkview(build):
    return os.path.join(build, 'cli', 'tkview')


last_cpu = [0.0]  # CPU seconds (user + sys) of the last wall() command


def wall(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = rc = os.waitstatus_to_exitcode(status)
    last_cpu[0] = ru.ru_utime + ru.ru_stime
    if rc > 1:  # bind exits 1 when the line binds to nothing: the work is the same
        sys.exit('%s: exit status %d' % (' '.join(cmd), rc))
    return time.perf_counter() - t0


def turns(cmds, cpu=None):
    """Best wall seconds of each of CMDS (a dict), run in turns; with CPU
    (a dict), the best CPU seconds of each too."""
    best = {k: float('inf') for k in cmds}
    for _ in range(args.runs):
        for k, c in cmds.items():
            best[k] = min(best[k], wall(c() if callable(c) else c))
            if cpu is not None:
                cpu[k] = min(cpu.get(k, float('inf')), last_cpu[0])
    return best


def instructions(cmd):
    return callgrind.instructions(cmd, tmp)


def inputs(cap):
    """The files --html reads: final stages and pass dumps (a raw capture's
    mlir_passes.txt and stderr.txt; a bundle's slices under KERNEL/passes/,
    plain or gzip; a refs slice's zstd pool is not counted: its frames made
    against a base decode only with it)."""
    files = []
    for r, _, fs in os.walk(cap):
        for f in fs:
            path = os.path.join(r, f)
            if re.search(r'\.(ttir|ttgir|llir|ptx|sass_gi|sass|amdgcn|source)$'
                         r'|(^|/)passes/[^/]*\.txt(\.gz)?$|^mlir_passes\.txt$|^stderr\.txt$',
                         os.path.relpath(path, cap) if f.endswith(('.txt', '.gz')) else f):
                files.append(path)
    return sorted(files)


def wc_cmd(files):
    plain = [f for f in files if not f.endswith('.gz')]
    gz = [f for f in files if f.endswith('.gz')]
    parts = []
    if plain:
        parts.append('cat ' + ' '.join(map(shlex.quote, plain)))
    if gz:
        parts.append('gzip -dc ' + ' '.join(map(shlex.quote, gz)))
    return ['sh', '-c', '{ %s; } | wc -l' % '; '.join(parts)]


def fmt_pair(name, fig, base, target, unit='ms'):
    b = '' if base is None else ', base %.1f %s (%.2fx)' % (base, unit, fig / base if base else 0)
    t = ', target %s %s' % (target, unit) if target is not None else ', no target'
    return '  %-28s %8.1f %s%s%s' % (name, fig, unit, b, t)


STAGE_FILE = re.compile(r'\.(ttir|ttgir|llir|ptx|sass_gi|sass|amdgcn|cubin)(\.zst)?$')


def kernel_folder(cap):
    """The capture's one-kernel folder with the most bytes of stage files:
    one of a raw capture's kernel_dump/HASH/, or a bundle's kernel folder
    (CAP itself when it is one); None when it has none."""
    roots = [os.path.join(cap, 'kernel_dump')] if os.path.isdir(os.path.join(cap, 'kernel_dump')) \
        else [cap]
    best, most = None, 0
    for root in roots:
        dirs = [root] + [os.path.join(root, d) for d in sorted(os.listdir(root))
                         if os.path.isdir(os.path.join(root, d))]
        for d in dirs:
            size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d)
                       if STAGE_FILE.search(f) and os.path.isfile(os.path.join(d, f)))
            if size > most:
                best, most = d, size
    return best


def cli_targets(cap, label=None):
    name = os.path.basename(cap.rstrip('/'))
    print('%s:' % (label or name))
    for cmd_name, extra in (('info', []), ('bind', ['--kernel', '0', '--ir', 'ttgir:20'])):
        cmds = {b: [tkview(d), cmd_name, cap, *extra] for b, d in builds}
        best = turns(cmds)
        print(fmt_pair('tkview %s' % cmd_name, best['new'] * 1e3,
                       best['base'] * 1e3 if 'base' in best else None, TARGET[cmd_name + '_ms']))
        if args.instr:
            ir = {b: instructions(c) for b, c in cmds.items()}
            print('  %-28s %s' % ('  instructions', ', '.join('%s %.1fM' % (b, v / 1e6) for b, v in ir.items() if v)))


def html_targets(cap):
    files = inputs(cap)
    cmds = {'wc -l': wc_cmd(files)}
    for b, d in builds:
        out = os.path.join(tmp, 'html-' + b)

        def run(d=d, out=out):
            shutil.rmtree(out, ignore_errors=True)
            return [tkview(d), '--html', out, cap, '--quiet']
        cmds[b] = run
    cpu = {}
    best = turns(cmds, cpu)
    wc = best['wc -l']
    line = '  %-28s %8.1f ms = %.1fx wc -l (%.1f ms)' % ('tkview --html', best['new'] * 1e3,
                                                       best['new'] / wc, wc * 1e3)
    for b, _ in builds[1:]:
        line += ', %s %.1f ms = %.1fx' % (b, best[b] * 1e3, best[b] / wc)
    print(line + ', target %dx' % TARGET['html_x_wc'])
    print('  %-28s %s' % ('  CPU (user+sys)', ', '.join(
        '%s %.1f ms' % (b, cpu[b] * 1e3) for b in ['wc -l'] + [b for b, _ in builds])))
    if args.instr:
        ir = {}
        for b, d in builds:
            out = os.path.join(tmp, 'html-' + b)
            shutil.rmtree(out, ignore_errors=True)
            ir[b] = instructions([tkview(d), '--html', out, cap, '--quiet'])
        print('  %-28s %s' % ('  instructions', ', '.join('%s %.1fM' % (b, v / 1e6) for b, v in ir.items() if v)))


def viewer_bench(d, cap):
    exe = os.path.join(d, 'viewer', 'tkview-viewer-test')
    if not os.path.exists(exe):
        return None
    p = subprocess.run(['xvfb-run', '-a', exe, '--bench', cap, '--json', '--passes', '4'],
                       capture_output=True, text=True)
    try:
        return json.loads(p.stdout[p.stdout.index('{'):])
    except ValueError:
        print('  viewer --bench failed: ' + p.stderr[-300:])
        return None


def p95s(j):
    """Every series with a 95th percentile: name -> ms, and the main
    thread's CPU time p95 as 'NAME (CPU)' (other work on the machine
    inflates it less)."""
    out = {}
    for k, v in j.items():
        if isinstance(v, dict) and 'p95_ms' in v:
            out[k] = v['p95_ms']
            if 'cpu_p95_ms' in v:
                out[k + ' (CPU)'] = v['cpu_p95_ms']
    return out


def viewer_targets(cap):
    best = {}
    for _ in range(max(1, args.runs // 3)):
        for b, d in builds:
            j = viewer_bench(d, cap)
            if not j:
                continue
            cur = best.setdefault(b, {'first_view_ms': float('inf')})
            cur['first_view_ms'] = min(cur['first_view_ms'], j.get('first_view_ms', float('inf')))
            for k, v in p95s(j).items():
                cur[k] = min(cur.get(k, float('inf')), v)
    if 'new' not in best:
        return
    base = best.get('base', {})
    print(fmt_pair('viewer first view', best['new']['first_view_ms'],
                   base.get('first_view_ms'), TARGET['first_view_ms']))
    for k in sorted(best['new']):
        if k != 'first_view_ms':
            # selections of a line have the target; a pass's diff has none
            sel = k.startswith('select source') or k.startswith('select IR')
            print(fmt_pair('viewer p95 %s' % k, best['new'][k], base.get(k),
                           TARGET['select_p95_ms'] if sel else None))


def report_targets(cap):
    npm = os.path.join(args.build, 'npm')
    pw = args.playwright or os.path.join(npm, 'node_modules', 'playwright-core', 'index.mjs')
    if not os.path.exists(pw):
        os.makedirs(npm, exist_ok=True)
        shutil.copy(os.path.join(ROOT, 'tests', 'html', 'package.json'), npm)
        env = dict(os.environ, npm_config_cache=os.path.join(npm, 'cache'))
        subprocess.run(['npm', 'install', '--no-audit', '--no-fund', '--loglevel=error'],
                       cwd=npm, env=env, check=True)
    reps = []
    for b, d in builds:
        out = os.path.join(tmp, 'report-' + b)
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run([tkview(d), '--html', out, cap, '--quiet'], check=True)
        reps.append('%s=%s' % (b, out))
    home = os.path.join(tmp, 'home')
    env = dict(os.environ, XDG_CONFIG_HOME=home + '/config', XDG_CACHE_HOME=home + '/cache',
               XDG_DATA_HOME=home + '/data')
    p = subprocess.run(['node', os.path.join(HERE, 'report_bench.mjs'), pw, '--runs',
                        str(max(1, args.runs // 3)), *reps], env=env, capture_output=True, text=True)
    sys.stdout.write(''.join('  ' + l + '\n' for l in p.stdout.splitlines()))
    if p.returncode:
        print('  report_bench failed: ' + p.stderr[-500:])


try:
    print('issue 25 targets: best of %d turns; builds: %s' %
          (args.runs, ', '.join('%s=%s' % b for b in builds)))
    for cap in captures:
        if 'info' in only:
            cli_targets(cap)
        else:
            print('%s:' % os.path.basename(cap.rstrip('/')))
        if 'html' in only:
            html_targets(cap)
        if 'viewer' in only:
            viewer_targets(cap)
        if 'report' in only:
            report_targets(cap)
        # last: its heading names the kernel folder, not the capture
        if 'kernel' in only:
            kf = kernel_folder(cap)
            if kf and os.path.abspath(kf) != os.path.abspath(cap):
                cli_targets(kf, '%s, one kernel folder %s' % (
                    os.path.basename(cap.rstrip('/')), os.path.relpath(kf, cap)))
        sys.stdout.flush()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
