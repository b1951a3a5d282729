#!/usr/bin/env python3
"""The viewer on a stranger's bombs (issue 27), under Xvfb: a window's load
charges its own budget, stays responsive, says what it left out (its
problem count), and stays in bounded memory.

Bombs generated here from the sample bundle vector_add: eight kernels naming
one sparse 1 GiB stage file; a gzip of 400,000 tiny pass dumps.

Usage: test_viewer_budget.py TKVIEW-VIEWER-TEST   (TK_TEST_SAMPLES)
"""
import gzip
import json
import os
import shutil
import sys
import tempfile

from viewer_harness import Session, test, tap, skip_all, missing_tools

VIEWER = sys.argv[1]
SAMPLE = os.path.join(os.environ['TK_TEST_SAMPLES'], 'vector_add')
KDIR = 'add_kernel-faf6139b'
RSS_MIB = 1024  # far under what the bombs cost before the budget (1 GiB and up)

if missing_tools():
    skip_all('needs %s (debian-packages.txt: xvfb, dbus-daemon, libglib2.0-bin)'
             % ', '.join(missing_tools()))

WORK = tempfile.mkdtemp(prefix='tkview-viewer-budget-')
S = Session()


def bundle(name):
    b = os.path.join(WORK, name)
    shutil.copytree(SAMPLE, b, symlinks=True)
    return b


def eight():
    b = bundle('eight')
    with open(os.path.join(b, KDIR, 'big.ttgir'), 'wb') as f:
        f.truncate(1 << 30)
    with open(os.path.join(b, 'manifest.json')) as f:
        m = json.load(f)
    ks = []
    for i in range(8):
        c = json.loads(json.dumps(m['kernels'][0]))
        c['hash'] = '%064x' % (i + 1)
        c['stages']['ttgir'] = KDIR + '/big.ttgir'
        ks.append(c)
    m['kernels'] = ks
    with open(os.path.join(b, 'manifest.json'), 'w') as f:
        json.dump(m, f)
    return b


def tiny():
    b = bundle('tiny')
    with gzip.open(os.path.join(b, KDIR, 'passes', 'mlir.txt.gz'), 'wb', 9) as f:
        for j in range(0, 400000, 10000):
            f.write(b''.join(b'// -----// IR Dump Before P%d (p) (builtin.module) //----- //\n'
                             b'module {\n}\n' % i for i in range(j, j + 10000)))
    return b


def peak_rss_mib(proc):
    with open('/proc/%d/status' % proc.pid) as f:
        for line in f:
            if line.startswith('VmHWM:'):
                return int(line.split()[1]) // 1024
    return 0


@test
def eight_kernels_naming_one_gigabyte():
    v = S.start([VIEWER, eight()])
    S.wait_registered(v)
    w = S.wait_window(0)
    assert w['state'] == 'ready', w
    # the stage refused by the budget is one of the window's problems
    assert w['problems'] >= 1, w
    assert peak_rss_mib(v) < RSS_MIB, peak_rss_mib(v)
    assert S.quit(v) == 0


@test
def a_gzip_of_tiny_dumps_in_pass_mode():
    v = S.start([VIEWER, tiny()])
    S.wait_registered(v)
    S.wait_window(0)
    S.activate('mode', "<'passes'>", window=1)
    p = S.wait_passes()
    assert p['state'] not in ('loading', 'idle'), p
    # still answering, and small
    S.state()
    assert peak_rss_mib(v) < RSS_MIB, peak_rss_mib(v)
    assert S.quit(v) == 0


S.close()
shutil.rmtree(WORK, ignore_errors=True)
sys.exit(tap())
