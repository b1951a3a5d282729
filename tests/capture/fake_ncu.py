#!/usr/bin/env python3
"""A stand-in for Nsight Compute's ncu, for testing `tkview capture
--profile` without a GPU.

Profiling (ncu [OPTIONS] PROGRAM [ARGS...]): reads ncu's options up to the
program, runs the program with the environment it got, and writes the
report named by -o (with .ncu-rep added, as ncu does): a text file naming
the export to hand out later.  Exports (ncu --import REPORT --page source
--csv --print-source sass): prints that export (gunzipped).  Every call
appends its arguments, as one JSON array a line, to FAKE_NCU_LOG.

FAKE_NCU_CSV: the export the report stands for (e.g. the sample's
ncu/source_sass.csv.gz).  FAKE_NCU_MODE: "ok" (default), "noreport" (the
program runs, no report is written, as when ncu may not read the
counters), "badexport" (exporting fails with a message).
"""
import gzip
import json
import os
import subprocess
import sys

args = sys.argv[1:]
log = os.environ.get('FAKE_NCU_LOG')
if log:
    with open(log, 'a') as f:
        f.write(json.dumps(args) + '\n')
mode = os.environ.get('FAKE_NCU_MODE', 'ok')

if '--import' in args:
    report = args[args.index('--import') + 1]
    want = ['--page', 'source', '--csv', '--print-source', 'sass']
    if args[args.index('--import') + 2:] != want:
        sys.exit('fake ncu: unexpected export options %r' % args)
    if mode == 'badexport':
        sys.exit('==ERROR== fake ncu: cannot export')
    with open(report) as f:
        csv = f.read().strip()
    with open(csv, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    sys.stdout.write(data.decode())
    sys.exit(0)

# ncu's options up to the program: those below take a value
with_value = {'--set', '--section', '--kernel-id', '-o', '--export', '-k',
              '--kernel-name', '-c', '--launch-count', '-s', '--launch-skip',
              '--warp-sampling-interval', '--import-source', '--metrics'}
i, out = 0, None
while i < len(args) and args[i].startswith('-'):
    if args[i] in ('-o', '--export'):
        out = args[i + 1]
    i += 2 if args[i] in with_value else 1
program = args[i:]
if not program or not out:
    sys.exit('fake ncu: no program or no -o in %r' % args)
print('==PROF== Connected to process (fake)', flush=True)
code = subprocess.call(program)
if mode != 'noreport':
    with open(out + '.ncu-rep', 'w') as f:
        f.write(os.environ['FAKE_NCU_CSV'] + '\n')
    print('==PROF== Report: %s.ncu-rep' % out, flush=True)
sys.exit(code)
