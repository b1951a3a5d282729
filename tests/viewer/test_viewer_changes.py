#!/usr/bin/env python3
"""The viewer counts every pass's changes as `tkview diff` does, under Xvfb.

For every kernel of the bundle and every pass and sub-step `tkview passes
--json` marks as changed, the pass view's change count (its "change K of
N" label, N the whole diff's when it is cut over its budget) must be the
count `tkview passes --changes --json` gives it: one process for the whole
bundle, each pass's diff made as `tkview diff PATH --kernel HASH --pass
N[.J]` makes it and counted by the library (tk_ir_diff_change_count());
that it is the number of hunks `tkview diff --json` prints is checked here
on the first and the last changed pass.  tests/html/test_change_counts.mjs
checks the report against the same CLI.

TK_BREAK_COUNT=N adds N to the viewer's count of the first pass (to see
this test fail).

Usage: test_viewer_changes.py TKVIEW-VIEWER-TEST TKVIEW BUNDLE   Prints TAP.
"""
import json
import os
import re
import subprocess
import sys

from viewer_harness import Session, test, tap, skip_all, missing_tools

VIEWER, TKVIEW, BUNDLE = sys.argv[1], sys.argv[2], sys.argv[3]
BREAK = int(os.environ.get('TK_BREAK_COUNT', '0'))

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))


def tk_json(*args):
    p = subprocess.run([TKVIEW, *args, '--json', '--quiet'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert p.returncode == 0, (args, p.stderr.decode()[-400:])
    return json.loads(p.stdout)


PASSES = tk_json('passes', BUNDLE, '--changes')['kernels']
WANT = []  # (kernel index, hash, "N" or "N.J", the CLI's count)
for ki, k in enumerate(PASSES):
    for p in k['passes']:
        if p['effect'] == 'changed':
            WANT.append((ki, k['hash'], str(p['index']), p['changes']))
        for s in p['substeps']:
            if s['effect'] == 'changed':
                WANT.append((ki, k['hash'], '%d.%d' % (p['index'], s['index']), s['changes']))


def diff_hunks(h, spec):
    """The hunks `tkview diff --json` prints (exit status 1: no change)."""
    p = subprocess.run([TKVIEW, 'diff', BUNDLE, '--kernel', h, '--pass', spec, '--json', '--quiet'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode in (0, 1), (spec, p.stderr.decode()[-400:])
    return len(json.loads(p.stdout)['hunks'])

S = Session()
viewer = S.start([VIEWER, BUNDLE])
S.wait_registered(viewer)
S.wait_window(0)


SHOWN = [None]  # the kernel whose passes the window shows


def select_pass(h, spec):
    """Pass SPEC of kernel H in pass mode (the kernel and mode chosen only
    when they change); the pass view's state once it shows it."""
    if SHOWN[0] != h:
        S.activate('select-kernel', "<'%s'>" % h, window=1)
        S.activate('mode', "<'passes'>", window=1)
        S.wait_passes()
        SHOWN[0] = h
    S.activate('pass-view.select-pass', "<'%s'>" % spec, window=1)
    return S.wait_passes()


@test
def every_changed_pass_has_as_many_changes_as_tkview_diff_prints():
    assert WANT, 'no changed pass in ' + BUNDLE
    bad = []
    for w in {WANT[0], WANT[-1]} if WANT else ():
        assert diff_hunks(w[1], w[2]) == w[3], ('tkview passes --changes and tkview diff --json', w)
    for i, (ki, h, spec, want) in enumerate(WANT):
        p = select_pass(h, spec)
        assert p['selected'] == spec, (p['selected'], spec)
        # what the user reads: "change K of N", "N changes" or "no change"
        # (of a diff cut over its budget, N is the whole diff's)
        m = re.search(r'of (\d+)|^(\d+) changes?', p['change_text'])
        got = (int(m.group(1) or m.group(2)) if m else 0) + (BREAK if i == 0 else 0)
        assert m or p['change_text'] == 'no change', p['change_text']
        if got != want:
            bad.append((h[:12], spec, got, want))
    print('# %s: %d changed passes and sub-steps compared' % (os.path.basename(BUNDLE.rstrip('/')), len(WANT)))
    assert not bad, '%d of %d differ ((hash, pass, viewer, tkview diff)): %s' % (len(bad), len(WANT), bad[:12])


NO_BEFORE = [(k['hash'], str(p['index'])) for k in PASSES for p in k['passes']
             if p['effect'] == 'unknown' and p['reason'] == 'nothing comparable before it'
             and p['after']['kind'] == 'dump'][:4]


@test
def a_pass_with_nothing_before_it_shows_its_ir_after_it():
    # The IR after it alone (no empty pane), and the sentence `tkview diff
    # --pass N` says (tk_unknown_why_sentence()).
    for h, spec in NO_BEFORE:
        p = select_pass(h, spec)
        # its first line: "KERNEL: PASS (pass N): Effect unknown: ..."
        cli = subprocess.run([TKVIEW, 'diff', BUNDLE, '--kernel', h, '--pass', spec, '--quiet',
                              '--wide'], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE).stdout.decode().split('\n')[0]
        sentence = cli[cli.index('Effect unknown'):].strip()
        assert sentence in p['title'], (spec, cli, p['title'])
        assert not p['a']['visible'] and p['b']['visible'] and p['b']['rows'] > 0, (spec, p['a'], p['b'])
        assert p['change_text'] == '' and p['stats_text'] == '', (spec, p)
        if os.path.basename(BUNDLE.rstrip('/')) == 'amd_gfx942' and spec == '61':
            # add_sum_kernel's first LLVM IR dump, llvm.txt.gz:1 ("*** IR Dump
            # After Annotation2MetadataPass on [module] ***", to line 295):
            # 223 lines neither blank nor metadata, and 5 metadata lines that
            # are not debug information (!llvm.dbg.cu, !llvm.module.flags,
            # !2, !3, !6 = !{}): 228 rows; the 25 !DI... lines are left out.
            assert p['b']['name'] == 'llvm.txt.gz:1' and p['b']['rows'] == 228, p['b']
    if WANT:
        # a changed pass shows both sides again
        S.activate('pass-view.select-pass', "<'%s'>" % WANT[-1][2], window=1)
        p = S.wait_passes()
        assert p['a']['visible'] and p['b']['visible'], (p['a'], p['b'])
    print('# %d passes with nothing comparable before them' % len(NO_BEFORE))


@test
def quits_cleanly():
    rc = S.quit(viewer)
    log = S.log(viewer)
    assert rc == 0 and 'CRITICAL' not in log, (rc, log)


S.close()
sys.exit(tap())
