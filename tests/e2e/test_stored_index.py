#!/usr/bin/env python3
"""A bundle's stored index of each pass dump slice (docs/bundle.md, "The
stored index of a slice"): `tkview info` on a bundle with it says the same as
on the same bundle without it, and a stored index that lies is refused with a
warning naming it, the slice's text indexed instead.

On sample_dumps/attention_fwd re-bundled with `tkview bundle` (its slice is
written again as a refs file with its index).  Read by hand:
  zcat sample_dumps/attention_fwd/attn_fwd-e75ec6eb/passes/mlir.txt.gz |
    grep -c 'IR Dump'      -> 82
so info lists one pass dump file of 82 dumps and one sequence, and the kernel
82 MLIR dumps.  Prints TAP.

Usage: test_stored_index.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps/)
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, test  # noqa: E402
from zstd_file import read_kernel_file  # noqa: E402

TKVIEW = sys.argv[1]
SAMPLE = os.path.join(os.environ['TK_TEST_SAMPLES'], 'attention_fwd')
TMP = tempfile.mkdtemp(prefix='stored-index-')
SLICE_GZ = os.path.join(SAMPLE, 'attn_fwd-e75ec6eb', 'passes', 'mlir.txt.gz')


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def headers_in_text():
    with gzip.open(SLICE_GZ, 'rt', encoding='utf-8', errors='replace') as f:
        return sum(1 for line in f if 'IR Dump' in line)


def make(name, keep_index=True):
    out = os.path.join(TMP, name)
    rc, _, err = run('bundle', SAMPLE, '-o', out)
    assert rc == 0, err
    if not keep_index:
        man = os.path.join(out, 'manifest.json')
        with open(man) as f:
            m = json.load(f)
        for k in m['kernels']:
            for p in k.get('passes', []):
                os.unlink(os.path.join(out, p.pop('index')))
        with open(man, 'w') as f:
            json.dump(m, f, indent=2)
    return out


def info(path):
    rc, out, err = run('info', path)
    assert rc == 0, err
    return out.replace(path, 'B'), err


def plain_index(b):
    """The stored index (one zstd frame) written out plain, the manifest
    naming that: its path, for a test to edit."""
    rel = 'attn_fwd-e75ec6eb/passes/mlir.index'
    text = read_kernel_file(os.path.join(b, rel + '.zst'))
    with open(os.path.join(b, rel), 'wb') as f:
        f.write(text)
    man = os.path.join(b, 'manifest.json')
    with open(man) as f:
        m = json.load(f)
    m['kernels'][0]['passes'][0]['index'] = rel
    with open(man, 'w') as f:
        json.dump(m, f, indent=2)
    return os.path.join(b, rel)


# the bundle lists a stored index per slice, and info reads the 82 dumps from it
@test
def index_listed():
    b = make('with')
    with open(os.path.join(b, 'manifest.json')) as f:
        m = json.load(f)
    entry = m['kernels'][0]['passes'][0]
    assert entry['index'] == 'attn_fwd-e75ec6eb/passes/mlir.index.zst', entry
    assert m['format_version'] == 4
    n = headers_in_text()
    assert n == 82, n
    out, err = info(b)
    assert 'warning' not in err and 'index' not in err, err
    assert re.search(r'\[0\]\s+mlir\s+\d+\s+82\s+1\s+B/attn_fwd-e75ec6eb/passes/mlir.refs', out), out
    assert re.search(r'mlir\s+82\s+\[0\] B/attn_fwd-e75ec6eb/passes/mlir.refs', out), out


# info says the same with and without the stored index (text and --json)
@test
def info_same():
    a = make('with2')
    b = make('without', keep_index=False)
    ia, ea = info(a)
    ib, eb = info(b)
    assert ia == ib, (ia, ib)
    assert ea == eb, (ea, eb)
    assert 'warning' not in ea, ea
    ja = run('info', '--json', a)[1].replace(a, 'B')
    jb = run('info', '--json', b)[1].replace(b, 'B')
    assert ja == jb


CUT_DUMPS = '''// -----// IR Dump Before Inliner (inline) ('builtin.module' operation) //----- //
module {
  tt.func public @k() {
    tt.return
  }
}

// -----// IR Dump After Inliner (inline) ('builtin.module' operation) //----- //
module {
  tt.func public @k() {
'''


# a cut dump warns the same with and without the stored index (read by
# hand: the second dump, line 8, ends inside its module at line 10)
@test
def cut_dump_warns_the_same():
    src = os.path.join(TMP, 'cut.mlir-dump.txt')
    with open(src, 'w') as f:
        f.write(CUT_DUMPS)
    outs = []
    for name, keep in (('cut-with', True), ('cut-without', False)):
        out = os.path.join(TMP, name)
        rc, _, err = run('bundle', src, '-o', out)
        assert rc == 0, err
        with open(os.path.join(out, 'manifest.json')) as f:
            m = json.load(f)
        entry = m['kernels'][0]['passes'][0]
        if not keep:
            os.unlink(os.path.join(out, entry.pop('index')))
            with open(os.path.join(out, 'manifest.json'), 'w') as f:
                json.dump(m, f, indent=2)
        rc, o, e = run('info', out)
        assert rc == 0, e
        outs.append((o.replace(out, 'B'), e.replace(out, 'B')))
    assert outs[0] == outs[1], outs
    assert re.search(r'passes/mlir.refs:8: warning: the MLIR dump at line 8 \(Inliner\) ends '
                     r'inside its module at line 10', outs[0][1]), outs[0][1]


def lie(name, edit, why):
    b = make(name)
    path = plain_index(b)
    with open(path) as f:
        text = f.read()
    with open(path, 'w') as f:
        f.write(edit(text))
    rc, out, err = run('info', b)
    assert rc == 0, err
    assert 'mlir.index: warning: stored index of' in err, err
    assert why in err, err
    assert 'its text is indexed instead' in err, err
    assert re.search(r'mlir\s+82\s+\[0\]', out), out


def nth_dump_line(text, n):
    return text.split('\n')[1 + n]


# a stored index with a wrong count of dumps is refused, named, the text indexed
@test
def wrong_count():
    lie('count', lambda t: t.replace(' dumps 82 ', ' dumps 90 ', 1), 'not the 90 it says')


# a stored index with a body past the end of the text is refused
@test
def past_the_end():
    def edit(t):
        line = nth_dump_line(t, 82)
        f = line.split(' ')
        f[3] = '99999999999'
        return t.replace(line, ' '.join(f))
    lie('past', edit, "outside the slice's text")


# a stored index whose header names another pass is refused
@test
def wrong_pass():
    def edit(t):
        line = nth_dump_line(t, 5)
        f = line.split('\t')
        f[1] = 'CSE'
        return t.replace(line, '\t'.join(f))
    lie('pass', edit, 'the stored index "CSE"')


# a stored index that is not one is refused
@test
def not_an_index():
    lie('garbage', lambda t: 'hello\n', 'not a stored pass index')


try:
    status = finish()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
sys.exit(status)
