#!/usr/bin/env python3
"""bind, hot and the report agree on every source line of every bundle.

For each kernel of each bundle given, and for every source line its SASS
names (hot --top 0 lists them all):

  - the SASS instructions `tkview bind --source F:L --stage sass --json`
    lists (kind "instruction") are as many as `tkview hot --metric
    instructions --inclusive --json` counts for F:L, and as its own
    "stages.sass.called";
  - the report's data (data/kNNN/cost.js, written by C) has the same
    inclusive count for F:L;
  - the sentences saying the PTX and the SASS disagree about F:L are the
    same in bind and hot.

`bind --source` answers for the statement F:L belongs to; where Triton
recorded code at several lines of one statement, the statement's answer is
the union of its lines' answers, so there the check is that bind lists at
least what hot counts for F:L (and no more than the lines' sum).

Usage: test_agree.py TKVIEW BUNDLE...   Prints TAP.
"""
import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, run  # noqa: E402

TKVIEW = sys.argv[1]
BUNDLES = sys.argv[2:]
ENV = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}


def run_json(*args, nothing_ok=False):
    """tkview's JSON; with NOTHING_OK, exit status 1 (nothing found: a
    call site whose SASS is all shared) is an answer too."""
    p = subprocess.run([TKVIEW, *args, '--json'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300, env=ENV)
    ok = p.returncode == 0 or (nothing_ok and p.returncode == 1 and p.stdout.strip())
    assert ok, (args, p.returncode, p.stderr.decode()[-500:])
    return json.loads(p.stdout)


def has_sass(bundle):
    """Whether some kernel of BUNDLE has SASS (hot refuses a bundle
    without: cost is counted on SASS instructions)."""
    p = subprocess.run([TKVIEW, 'hot', bundle, '--top', '1'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300, env=ENV)
    return p.returncode == 0


def putz(path):
    """The JSON of a data file written as TK.putz("KEY", "BASE64 GZIP")."""
    m = re.fullmatch(r'TK\.putz\("[^"]*","([A-Za-z0-9+/=]+)"\);\n', open(path).read())
    assert m, path
    return json.loads(zlib.decompress(base64.b64decode(m.group(1)), 16 + 15))


def put(path):
    """The JSON of a data file written as TK.put("KEY", JSON)."""
    text = open(path).read()
    m = re.fullmatch(r'TK\.put\("[^"]*",(.*)\);\n', text, re.S)
    assert m, path
    return json.loads(m.group(1))


def report_counts(bundle, tmp):
    """{(hash, path, line): inclusive instructions} and {(hash, path, line):
    [sentences where the stages disagree]} from the report's data."""
    out = os.path.join(tmp, 'r')
    p = subprocess.run([TKVIEW, 'html', out, bundle, '--quiet'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600, env=ENV)
    assert p.returncode == 0, p.stderr.decode()[-500:]
    files = [f[0] for f in put(os.path.join(out, 'data', 'files.js'))]
    counts = {}
    disagree = {}
    data = os.path.join(out, 'data')
    for k in sorted(os.listdir(data)):
        cost = os.path.join(data, k, 'cost.js')
        if not re.fullmatch(r'k\d+', k) or not os.path.exists(cost):
            continue
        meta = put(os.path.join(data, k, 'meta.js'))
        c = putz(cost)
        assert c['metrics'][0][0] == 'instructions', c['metrics'][0]
        for row in c['src']:
            inc = row[3][0] if row[3] else 0
            counts[(meta['hash'], files[row[0]], row[1])] = inc
        for f, line, text in c.get('disagree', []):
            disagree.setdefault((meta['hash'], files[f], line), []).append(text)
    return counts, disagree


def check_bundle(bundle):
    hot = run_json('hot', bundle, '--metric', 'instructions', '--inclusive', '--top', '0')
    bad = []
    n = 0
    with tempfile.TemporaryDirectory(prefix='tk-agree-') as tmp:
        report, report_disagree = report_counts(bundle, tmp)
    for k in hot['kernels']:
        recorded = {(l['file'], l['line']) for l in k['lines']}
        by_line = {(l['file'], l['line']): l for l in k['lines']}
        for l in k['lines']:
            n += 1
            where = '%s %s:%d' % (k['name'], l['file'], l['line'])
            inc = l['inclusive']
            if l['stages'].get('sass', {}).get('called') != inc:
                bad.append('%s: hot inclusive %s, its sass column %s' %
                           (where, inc, l['stages'].get('sass')))
            rep = report.get((k['hash'], l['file'], l['line']))
            if rep != inc:
                bad.append('%s: hot inclusive %s, report %s' % (where, inc, rep))
            rd = sorted(report_disagree.get((k['hash'], l['file'], l['line']), []))
            if rd != sorted(l.get('stages_disagree', [])):
                bad.append('%s: report says %s, hot says %s' % (where, rd, l.get('stages_disagree')))
            b = run_json('bind', bundle, '--kernel', k['hash'], '--source',
                         '%s:%d' % (l['file'], l['line']), '--stage', 'sass',
                         nothing_ok=True)
            kb = [x for x in b['kernels'] if x['hash'] == k['hash']]
            kb = kb[0] if kb else {'stages': {}, 'recorded_lines': [], 'stages_disagree': []}
            got = sum(1 for x in (kb['stages'].get('sass') or []) if x['kind'] == 'instruction')
            lines = [x for x in kb['recorded_lines'] if (l['file'], x) in recorded]
            if len(lines) <= 1:
                if got != inc:
                    bad.append('%s: bind lists %d SASS instructions, hot counts %s' % (where, got, inc))
            else:
                most = sum(by_line[(l['file'], x)]['inclusive'] for x in lines)
                if not inc <= got <= most:
                    bad.append('%s: bind lists %d for statement lines %s, hot %s (sum %s)' %
                               (where, got, lines, inc, most))
            if len(lines) <= 1 and sorted(kb.get('stages_disagree', [])) != sorted(l.get('stages_disagree', [])):
                bad.append('%s: bind says %s, hot says %s' %
                           (where, kb.get('stages_disagree'), l.get('stages_disagree')))
    assert n > 0, 'no source line with code in %s' % bundle
    assert not bad, '%d of %d lines disagree:\n  ' % (len(bad), n) + '\n  '.join(bad[:20])


for b in BUNDLES:
    if not has_sass(b):
        continue  # cost is counted on SASS: nothing to compare
    run('bind, hot and the report agree on every line of ' + os.path.basename(b.rstrip('/')),
        lambda b=b: check_bundle(b))
finish()
