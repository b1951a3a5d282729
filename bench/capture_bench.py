#!/usr/bin/env python3
"""capture_bench.py - what `tkview capture` costs over the program it captures.

Issue 25: capture's own work must cost <= 10% over the program run under the
same Triton knobs, and a whole capture should take <= 2x the plain run.  On a
GPU machine with Triton, each PROGRAM is run, one run at a time, with fresh
caches (TRITON_CACHE_DIR and TORCHINDUCTOR_CACHE_DIR in a new temp folder):

  plain        the program alone
  plain_hook   the program with tkview's hook and no dump knobs (with
               --stage-times: each compile stage's time without the knobs)
  knobs        capture's knob set (docs/capture.md), stderr batched, no hook
  knobs_hook   the same plus tkview's Python hook (each compile's dumps in a
               file of its own): the program as capture runs it
  capture      `tkview capture` (TKVIEW_CAPTURE_TIMES=1: its steps' times)
  capture_base the same with --base's tkview (an older build, for before/after)
  capture_all  `tkview capture` with TKVIEW_LLVM_DUMPS=all: LLVM's
               print-after-all as before issue 25's fifth round (capture
               itself asks for -print-changed where the hook can, measured
               against knobs_hook_changed_only)
  capture_late `tkview capture` with TKVIEW_CAPTURE_LATE=1: nvdisasm only
               after the program, as before issue 25's second round
  capture_mlir, capture_none   `tkview capture --passes mlir|none`
  capture_kernel, capture_base_kernel   `tkview capture --kernel NAME` (--kernel),
               this build's and --base's
  knobs_hook_mlir, knobs_hook_none   knobs_hook without LLVM_IR_ENABLE_DUMP,
               and without either pass dump: what those captures are
               measured against
  and the knob alternatives (what a capture could ask for instead):
  mlir_only    the knobs without LLVM_IR_ENABLE_DUMP (MLIR pass dumps only)
  llvm_only    the knobs without MLIR_ENABLE_DUMP
  codegen_only no MLIR dumps, LLVM's print-after-all for the code generator
               only (DISABLE_LLVM_OPT=print-after-all sets the option without
               the optimizer's instrumentation)
  final_only   neither pass dump: final stages, diagnostics, ptxas's log
  knobs_hook_cg_all      knobs_hook, LLVM's print-after-all for the code
               generator only (as codegen_only)
  knobs_hook_cg_changed  knobs_hook, no LLVM_IR_ENABLE_DUMP, LLVM's
               -print-changed set through the hook (TKVIEW_LLVM_OPTIONS):
               only the code generator's passes that changed the IR
  knobs_hook_changed     knobs_hook plus -print-changed: the optimizer prints
               both (Triton forces print-after-all): what detecting changes costs
  knobs_hook_nofuncs     knobs_hook plus -filter-print-funcs=NONE: LLVM's
               instrumentation without printing: what the printing costs
  knobs_hook_changed_only  knobs_hook with TKVIEW_LLVM_CHANGED: the hook
               renames LLVM's print-after-all inside libtriton.so, so that
               Triton cannot set it, and sets -print-changed for the
               optimizer (print-after-all for the code generator, where it
               can): the program as `tkview capture` now runs it

It prints wall and CPU seconds (user+system of the process tree: how many
cores were kept busy) and bytes of stderr, each variant's ratio to plain and
capture's to knobs_hook, and writes them as JSON with --json.  It asserts
nothing.

  python3 bench/capture_bench.py --tkview DIR/bin/tkview --batch DIR/lib/libtkview-stderr-batch.so \
      --hook compiler/python [--variants plain,knobs,capture] [--runs 2] PROGRAM.py ...

With --runs N each turn starts one variant later than the one before
(--no-rotate: same order), and each capture's ratio to its baseline is
printed for every turn as well as for the best runs.

With --sample each run is watched through /proc every 0.2 s (Linux): the
machine's busy cores (/proc/stat), and the nvdisasm processes capture runs
beside the program: how many at once, seconds with any running, their CPU
(each process's last sampled user+system: a tool that lives under 0.2 s is
missed), the machine's busy cores while they ran, and tkview's own CPU (its
threads, not its children).  With --keep the samples go to
PROGRAM.VARIANT.TURN.samples.json.  --deadline S starts no run that the
same program's last run says would end after S seconds from the start.
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ALL = ['plain', 'plain_hook', 'knobs', 'knobs_hook', 'capture', 'capture_base', 'mlir_only', 'llvm_only',
       'codegen_only', 'final_only', 'knobs_hook_mlir', 'capture_mlir', 'knobs_hook_none',
       'capture_none', 'capture_late', 'knobs_hook_cg_all', 'knobs_hook_cg_changed',
       'knobs_hook_changed', 'knobs_hook_nofuncs', 'knobs_hook_changed_only', 'capture_kernel',
       'capture_base_kernel', 'capture_all']
# LLVM options the hook sets through LLVMParseCommandLineOptions (when
# libtriton.so exports it): what a capture could ask LLVM for instead of
# Triton's print-after-all.
LLVM_OPTIONS = {'knobs_hook_cg_changed': '-print-changed',
                'knobs_hook_changed': '-print-changed',
                'knobs_hook_nofuncs': '-filter-print-funcs=tkview_no_such_function'}
CAPTURES = ('capture', 'capture_base', 'capture_mlir', 'capture_none', 'capture_late',
            'capture_kernel', 'capture_base_kernel', 'capture_all')
# each capture against the program under the same knobs
AGAINST = {'capture': 'knobs_hook_changed_only', 'capture_all': 'knobs_hook',
           'capture_base': 'knobs_hook', 'capture_late': 'knobs_hook',
           'capture_kernel': 'knobs_hook', 'capture_base_kernel': 'knobs_hook',
           'capture_mlir': 'knobs_hook_mlir', 'capture_none': 'knobs_hook_none'}


def knob_env(tmp, batch, variant, hook):
    env = {
        'TRITON_ALWAYS_COMPILE': '1',
        'TRITON_KERNEL_DUMP': '1',
        'TRITON_DUMP_DIR': os.path.join(tmp, 'kernel_dump'),
        'MLIR_ENABLE_DUMP': '1',
        'LLVM_IR_ENABLE_DUMP': '1',
        'MLIR_ENABLE_DIAGNOSTICS': 'warnings,remarks',
        'TRITON_DUMP_PTXAS_LOG': '1',
        'LD_PRELOAD': batch,
    }
    if variant in ('mlir_only', 'codegen_only', 'final_only', 'knobs_hook_mlir',
                   'knobs_hook_none'):
        del env['LLVM_IR_ENABLE_DUMP']
    if variant in ('llvm_only', 'codegen_only', 'final_only', 'knobs_hook_none'):
        del env['MLIR_ENABLE_DUMP']
    if variant in ('codegen_only', 'knobs_hook_cg_all'):
        env['DISABLE_LLVM_OPT'] = 'print-after-all'
    if variant in ('knobs_hook_cg_all', 'knobs_hook_cg_changed'):
        del env['LLVM_IR_ENABLE_DUMP']
    if variant in LLVM_OPTIONS:
        env['TKVIEW_LLVM_OPTIONS'] = LLVM_OPTIONS[variant]
    if variant == 'plain_hook':
        env = {}
    if variant.startswith('knobs_hook') or variant == 'plain_hook':
        for d in ('autotune', 'compiles'):
            os.makedirs(os.path.join(tmp, d))
        old = os.environ.get('PYTHONPATH')
        if variant == 'knobs_hook_changed_only':
            # what `tkview capture` asks the hook for (capture_llvm_mode.c)
            env['TKVIEW_LLVM_CHANGED'] = '1'
        env.update({'PYTHONPATH': hook + (':' + old if old else ''),
                    'TKVIEW_AUTOTUNE_DIR': os.path.join(tmp, 'autotune'),
                    'TKVIEW_COMPILES_DIR': os.path.join(tmp, 'compiles'),
                    'TKVIEW_MLIR_DUMP_PATH': os.path.join(tmp, 'mlir_passes.txt')})
    return env


def count_headers(comp, keep):
    """LLVM's dumps in the compiles' files: 'IR Dump After' headers printed,
    and those -print-changed says it left out (no change); the headers
    themselves written to KEEP."""
    n = omitted = 0
    out = open(keep, 'w') if keep else None
    for f in sorted(os.listdir(comp)):
        with open(os.path.join(comp, f), 'rb') as fh:
            for line in fh:
                if b'IR Dump After' in line[:40]:
                    n += 1
                    omitted += b'omitted because no change' in line
                    if out:
                        out.write(line.decode('utf-8', 'replace')[:200])
    if out:
        out.close()
    return {'llvm_headers': n, 'omitted_no_change': omitted}


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


TICK = os.sysconf('SC_CLK_TCK') if hasattr(os, 'sysconf') else 100


def proc_cpu(pid):
    """user+system seconds of PID (all its threads), or None."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            rest = f.read().rsplit(')', 1)[1].split()
        return (int(rest[11]) + int(rest[12])) / TICK
    except (OSError, IndexError, ValueError):
        return None


def machine_busy():
    """(busy, total) jiffies of every core (/proc/stat's first line)."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


class Sampler(threading.Thread):
    """Every 0.2 s: busy cores, nvdisasm processes and their CPU, tkview's
    own CPU (PID), until stop()."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.halt = pid, threading.Event()
        self.samples, self.tools, self.self_cpu = [], {}, 0.0
        self.ncpu = os.cpu_count() or 1

    def run(self):
        t0, (b0, a0) = time.monotonic(), machine_busy()
        while not self.halt.wait(0.2):
            n, tool_now = 0, 0.0
            for d in os.listdir('/proc'):
                if not d.isdigit():
                    continue
                try:
                    with open('/proc/%s/comm' % d) as f:
                        if f.read().strip() != 'nvdisasm':
                            continue
                except OSError:
                    continue
                c = proc_cpu(int(d))
                if c is not None:
                    n += 1
                    tool_now += c - self.tools.get(d, 0.0)
                    self.tools[d] = c
            c = proc_cpu(self.pid)
            if c is not None:
                self.self_cpu = c
            b, a = machine_busy()
            busy = self.ncpu * (b - b0) / (a - a0) if a > a0 else 0.0
            b0, a0 = b, a
            self.samples.append((round(time.monotonic() - t0, 2), round(busy, 2), n,
                                 round(tool_now, 2)))

    def stop(self):
        self.halt.set()
        self.join()

    def summary(self):
        s = self.samples
        with_tools = [x for x in s if x[2]]
        return {'busy_cores_mean': round(sum(x[1] for x in s) / len(s), 2) if s else None,
                'tools_cpu': round(sum(self.tools.values()), 2),
                'tools_seconds': round(0.2 * len(with_tools), 1),
                'tools_max': max((x[2] for x in s), default=0),
                'busy_cores_with_tools': round(sum(x[1] for x in with_tools) /
                                               len(with_tools), 2) if with_tools else None,
                'tools_last_at': with_tools[-1][0] if with_tools else None,
                'tkview_self_cpu': round(self.self_cpu, 2)}


def run_one(args, prog, variant):
    tmp = tempfile.mkdtemp(prefix='capbench-', dir=args.tmp)
    env = dict(os.environ)
    for k in ('TRITON_CACHE_DIR', 'TORCHINDUCTOR_CACHE_DIR', 'MLIR_DUMP_PATH'):
        env.pop(k, None)
    env['TRITON_CACHE_DIR'] = os.path.join(tmp, 'cache')
    env['TORCHINDUCTOR_CACHE_DIR'] = os.path.join(tmp, 'inductor')
    argv = [sys.executable, prog]
    if variant in CAPTURES:
        env.update({'TKVIEW_CAPTURE_TIMES': '1', 'TKVIEW_STDERR_BATCH': args.batch,
                    'TKVIEW_PYTHON_DIR': args.hook})
        if variant == 'capture_late':
            env['TKVIEW_CAPTURE_LATE'] = '1'
        if variant == 'capture_all':
            env['TKVIEW_LLVM_DUMPS'] = 'all'
        if variant.startswith('capture_base') and args.base_lib:
            env['LD_LIBRARY_PATH'] = args.base_lib + ':' + env.get('LD_LIBRARY_PATH', '')
        passes = ['--passes', variant[len('capture_'):]] if variant in (
            'capture_mlir', 'capture_none') else []
        if variant.endswith('_kernel'):
            passes += ['--kernel', args.kernel]
        argv = [args.base if variant.startswith('capture_base') else args.tkview, 'capture',
                '--no-progress',
                *passes, '-o', os.path.join(tmp, 'b.tkview'), '--'] + argv
    elif variant != 'plain':
        env.update(knob_env(tmp, args.batch, variant, args.hook))
    times = os.path.join(tmp, 'stage_times')
    if args.stage_times:
        os.makedirs(times)
        env['TKVIEW_STAGE_TIMES'] = times
    if args.perf and variant in args.perf_variants.split(','):
        argv = ['perf', 'record', '-F', '499', '-q', '-o', os.path.join(
            args.perf, '%s.%s.%d.data' % (os.path.basename(prog), variant, args.turn)),
            '--'] + argv
    out_path, err_path = os.path.join(tmp, 'stdout'), os.path.join(tmp, 'stderr')
    c0, t0 = cpu_children(), time.monotonic()
    with open(out_path, 'wb') as out, open(err_path, 'wb') as err:
        p = subprocess.Popen(argv, env=env, stdout=out, stderr=err,
                             cwd=os.path.dirname(os.path.abspath(prog)))
        sampler = Sampler(p.pid) if args.sample else None
        if sampler:
            sampler.start()
        rc = p.wait()
    wall, cpu = time.monotonic() - t0, cpu_children() - c0
    res = {'program': os.path.basename(prog), 'variant': variant, 'rc': rc,
           'wall': round(wall, 2), 'cpu': round(cpu, 2),
           'stderr_bytes': os.path.getsize(err_path)}
    if sampler:
        sampler.stop()
        res.update(sampler.summary())
        if args.keep:
            with open(os.path.join(args.keep, '%s.%s.%d.samples.json' % (
                    res['program'], variant, args.turn)), 'w') as f:
                json.dump(sampler.samples, f)
    if args.stage_times:
        res['stages'] = stage_totals(times)
    comp = os.path.join(tmp, 'compiles')
    if os.path.isdir(comp):
        res['compiles_bytes'] = sum(os.path.getsize(os.path.join(comp, f))
                                    for f in os.listdir(comp))
        res.update(count_headers(comp, args.keep and os.path.join(
            args.keep, '%s.%s.headers.txt' % (os.path.basename(prog), variant))))
    text = open(err_path, errors='replace').read()
    if variant in CAPTURES:
        res['phases'] = {m.group(1): float(m.group(2)) for m in
                         re.finditer(r'^tkview: time (\S+)\s+([\d.]+) s$', text, re.M)}
        man = os.path.join(tmp, 'b.tkview', 'manifest.json')
        if os.path.exists(man):
            with open(man) as f:
                c = json.load(f).get('capture', {})
            res['early_cubins'] = c.get('cubins_disassembled_while_running')
            res['bundle_bytes'] = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in
                                      os.walk(os.path.join(tmp, 'b.tkview')) for f in fs)
        if os.path.exists(man) and args.keep:
            shutil.copy(man, os.path.join(args.keep, '%s.%s.manifest.json' %
                                          (res['program'], variant)))
        if os.path.exists(man) and args.keep and variant in ('capture', 'capture_all') \
                and args.turn == 0:
            # the pass lists and kernels of a bundle captured each way, to compare
            tk = args.tkview
            for what, extra in (('passes', []), ('info', [])):
                with open(os.path.join(args.keep, '%s.%s.%s.txt' % (res['program'], variant,
                                                                    what)), 'wb') as f:
                    subprocess.call([tk, what, os.path.join(tmp, 'b.tkview')] + extra,
                                    stdout=f, stderr=subprocess.STDOUT)
        if os.path.exists(man) and args.keep and variant.endswith('_kernel'):
            # the kernel's pass list, to compare what --kernel kept
            with open(os.path.join(args.keep, '%s.%s.passes.json' % (res['program'], variant)),
                      'wb') as f:
                subprocess.call([args.tkview, 'passes', os.path.join(tmp, 'b.tkview'),
                                 '--kernel', args.kernel, '--json'], stdout=f,
                                stderr=subprocess.DEVNULL)
    if rc != 0:
        res['stderr_tail'] = text[-600:]
    shutil.rmtree(tmp, ignore_errors=True)
    return res


def stage_totals(folder):
    """Seconds per compile stage (ttir, ttgir, llir, ptx, cubin), summed
    over the compiles, from the hook's TKVIEW_STAGE_TIMES lines, and the
    number of compiles."""
    tot, compiles = {}, set()
    for f in os.listdir(folder):
        with open(os.path.join(folder, f)) as fh:
            for line in fh:
                h, token, stage, sec = line.split()
                tot[stage] = round(tot.get(stage, 0.0) + float(sec), 3)
                compiles.add((f, token))
    tot['compiles'] = len(compiles)
    return tot


def turn_ratios(results, name, cap, against, phase=False):
    """CAP's wall (PHASE: its program phase, the program's own run under
    tkview) over AGAINST's wall in each turn that ran both (same turn: the
    machine as it was then)."""
    by = {(r['variant'], r['turn']): (r.get('phases', {}).get('program') if phase and
                                      r['variant'] == cap else r['wall'])
          for r in results if r['program'] == name}
    by = {k: v for k, v in by.items() if v is not None}
    turns = sorted({t for (_, t) in by})
    return [by[(cap, t)] / by[(against, t)] for t in turns
            if (cap, t) in by and (against, t) in by and by[(against, t)] > 0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('programs', nargs='+')
    ap.add_argument('--tkview', required=True)
    ap.add_argument('--batch', required=True, help='libtkview-stderr-batch.so')
    ap.add_argument('--hook', required=True, help="the folder of tkview's sitecustomize.py")
    ap.add_argument('--base', default=None, help='another tkview, for capture_base')
    ap.add_argument('--base-lib', default=None, help="a folder put first on LD_LIBRARY_PATH "
                    "for --base (its libtkdump)")
    ap.add_argument('--variants', default=None)
    ap.add_argument('--kernel', default=None, help="capture_kernel's and capture_base_kernel's "
                    "--kernel NAME")
    ap.add_argument('--runs', type=int, default=1)
    ap.add_argument('--no-rotate', dest='rotate', action='store_false',
                    help='run the variants in the same order every turn')
    ap.add_argument('--tmp', default=None)
    ap.add_argument('--keep', default=None, help='folder for the capture manifests')
    ap.add_argument('--json', default=None)
    ap.add_argument('--sample', action='store_true', help='watch each run through /proc: '
                    'busy cores, nvdisasm beside the program, tkview\'s own CPU')
    ap.add_argument('--deadline', type=float, default=None, help='seconds from the start '
                    'after which no run should end')
    ap.add_argument('--stage-times', action='store_true', help="the hook's time of each "
                    "compile stage (TKVIEW_STAGE_TIMES), summed per stage in 'stages'")
    ap.add_argument('--perf', default=None, help='a folder: the runs of --perf-variants '
                    'under `perf record` (DIR/PROGRAM.VARIANT.TURN.data)')
    ap.add_argument('--perf-variants', default='knobs_hook_changed_only')
    args = ap.parse_args()
    args.turn = 0
    start = time.monotonic()
    args.tkview, args.batch, args.hook = (os.path.abspath(p) for p in
                                          (args.tkview, args.batch, args.hook))
    if args.base:
        args.base = os.path.abspath(args.base)
    if not args.variants:
        args.variants = ','.join(v for v in ALL if (not v.startswith('capture_base') or args.base)
                                 and (not v.endswith('_kernel') or args.kernel))
    results = []
    for prog in args.programs:
        variants = args.variants.split(',')
        for r in range(args.runs):
            # Each turn starts one variant later: a machine that speeds up or
            # slows down through the run (run 3 of 2026-11-28 slowed by 38%)
            # then favours no variant.
            k = r % len(variants) if args.rotate else 0
            for v in variants[k:] + variants[:k]:
                last = [x['wall'] for x in results if x['program'] == os.path.basename(prog)]
                last = last or [x['wall'] for x in results]  # a first run: any program's
                if args.deadline and (time.monotonic() - start + 1.2 * max(last, default=0) >
                                      args.deadline):
                    print('deadline: %s %s turn %d not run' % (os.path.basename(prog), v, r),
                          flush=True)
                    continue
                args.turn = r
                res = run_one(args, prog, v)
                res['turn'] = r
                results.append(res)
                print(json.dumps(res), flush=True)
    print('\n| program | variant | wall s (best) | CPU s | x plain | stderr MB |')
    print('| --- | --- | --- | --- | --- | --- |')
    for prog in args.programs:
        name = os.path.basename(prog)
        best = {}
        for res in results:
            if res['program'] == name and (res['variant'] not in best or
                                           res['wall'] < best[res['variant']]['wall']):
                best[res['variant']] = res
        plain = best.get('plain', {}).get('wall')
        for v, res in best.items():
            ratio = '%.2f' % (res['wall'] / plain) if plain else ''
            mb = (res['stderr_bytes'] + res.get('compiles_bytes', 0)) / 1e6
            print('| %s | %s | %.2f | %.2f | %s | %.1f |' % (name, v, res['wall'], res['cpu'],
                                                          ratio, mb))
        for cap in CAPTURES:
            if cap in best and AGAINST[cap] in best:
                print('| %s | %s / %s | %.2f |  |  |  |' %
                      (name, cap, AGAINST[cap], best[cap]['wall'] / best[AGAINST[cap]]['wall']))
                turns = turn_ratios(results, name, cap, AGAINST[cap])
                if len(turns) > 1:
                    print('| %s | %s / %s, each turn | %s |  |  |  |' %
                          (name, cap, AGAINST[cap], ', '.join('%.2f' % t for t in turns)))
                turns = turn_ratios(results, name, cap, AGAINST[cap], phase=True)
                if turns:
                    print('| %s | %s program phase / %s, each turn | %s |  |  |  |' %
                          (name, cap, AGAINST[cap], ', '.join('%.2f' % t for t in turns)))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=1)


if __name__ == '__main__':
    main()
