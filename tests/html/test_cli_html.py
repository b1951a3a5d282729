#!/usr/bin/env python3
"""`tkview --html`: what it writes, and what it refuses.  Prints TAP.

Usage: test_cli_html.py TKVIEW   (TK_TEST_DUMPS names the unpacked dumps)
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

TKVIEW = os.path.abspath(sys.argv[1])
DUMPS = os.environ['TK_TEST_DUMPS']
VA = os.path.join(DUMPS, 'vector_add')
results = []


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def test(fn):
    try:
        with tempfile.TemporaryDirectory() as d:
            fn(d)
        results.append((fn.__name__, None))
    except Exception as e:  # report and go on: TAP wants every test's line
        results.append((fn.__name__, repr(e)))
    return fn


def listing(d):
    out = []
    for root, _, files in os.walk(d):
        out += [os.path.relpath(os.path.join(root, f), d) for f in files]
    return sorted(out)


@test
def writes_a_report_both_spellings(d):
    out = os.path.join(d, 'r')
    code, _, err = run('--html', out, VA, '--quiet')
    assert code == 0, err
    files = listing(out)
    for f in ['index.html', 'tkview-report.json', 'assets/report.js', 'assets/report.css',
              'data/files.js', 'data/k001/meta.js', 'data/k001/ttgir.text.js',
              'data/k001/ttgir.bind.js', 'data/k001/passes.js']:
        assert f in files, (f, files)
    assert any(re.fullmatch(r'k001-add_kernel\.html', f) for f in files), files
    # no leftovers of the staging folder beside it
    assert os.listdir(d) == ['r'], os.listdir(d)
    code, _, err = run('html', os.path.join(d, 's'), VA, '--quiet')
    assert code == 0, err
    # each stage text stored once: TTGIR's 71 lines (wc -l) in one file
    text = open(os.path.join(out, 'data/k001/ttgir.text.js')).read()
    m = re.fullmatch(r'TK\.putz\("k001/ttgir\.text","([A-Za-z0-9+/=]+)"\);\n', text)
    assert m, text[:80]
    arr = json.loads(zlib.decompress(base64.b64decode(m.group(1)), 16 + 15))
    assert len(arr) == 71, len(arr)
    assert sum('ttgir.text' in f for f in files) == 1


@test
def refuses_a_folder_that_is_not_a_report(d):
    out = os.path.join(d, 'mine')
    os.mkdir(out)
    with open(os.path.join(out, 'thesis.tex'), 'w') as f:
        f.write('precious')
    code, _, err = run('--html', out, VA, '--quiet')
    assert code == 2 and 'not an earlier tkview report' in err, (code, err)
    assert os.listdir(out) == ['thesis.tex'], os.listdir(out)
    assert sorted(os.listdir(d)) == ['mine'], os.listdir(d)
    code, _, err = run('--html', out, VA, '--quiet', '--force')
    assert code == 0, err
    assert 'thesis.tex' not in os.listdir(out) and 'index.html' in os.listdir(out)


@test
def replaces_an_earlier_report_and_an_empty_folder(d):
    out = os.path.join(d, 'r')
    os.mkdir(out)
    assert run('--html', out, VA, '--quiet')[0] == 0
    assert run('--html', out, VA, '--quiet')[0] == 0
    assert sorted(os.listdir(d)) == ['r'], os.listdir(d)
    # a file is never replaced
    f = os.path.join(d, 'file')
    open(f, 'w').close()
    code, _, err = run('--html', f, VA, '--quiet', '--force')
    assert code == 2 and 'not a folder' in err, (code, err)


@test
def a_failed_run_leaves_nothing(d):
    out = os.path.join(d, 'r')
    code, _, _ = run('--html', out, '/nonexistent/capture', '--quiet')
    assert code == 3
    code, _, err = run('--html', out, VA, '--notes', os.path.join(d, 'missing.md'))
    assert code == 2 and 'missing.md' in err, (code, err)
    assert os.listdir(d) == [], os.listdir(d)
    # an earlier report stays whole when the new one cannot be written
    assert run('--html', out, VA, '--quiet')[0] == 0
    before = listing(out)
    code, _, _ = run('--html', out, VA, '--notes', os.path.join(d, 'missing.md'))
    assert code == 2 and listing(out) == before
    assert run('--html', '.', VA)[0] == 2
    assert run('--html', out)[0] == 2


@test
def notes_are_markdown_without_raw_html(d):
    notes = os.path.join(d, 'n.md')
    with open(notes, 'w') as f:
        f.write('# Why *this* kernel\n\nSee `tl.sum`.\n\n<script>alert(1)</script>\n\n'
                '<img src=x onerror=alert(2)>\n\n[click](javascript:alert(3))\n')
    out = os.path.join(d, 'r')
    code, _, err = run('--html', out, VA, '--quiet', '--notes', notes)
    assert code == 0, err
    html = open(os.path.join(out, 'index.html')).read()
    assert '<h1>Why <em>this</em> kernel</h1>' in html, html
    assert '<code>tl.sum</code>' in html
    assert '<script>alert' not in html and '<img' not in html and 'javascript:' not in html
    # the only scripts are the report's own files
    assert re.findall(r'<script[^>]*>', html) == ['<script src="assets/report.js" defer></script>'[:-9]], \
        re.findall(r'<script[^>]*>', html)


@test
def hostile_names_stay_inside_outdir_and_escaped(d):
    cap = os.path.join(d, 'cap')
    src = os.path.join(VA, 'kernel_dump')
    k = os.listdir(src)[0]
    name = 'k<b>"<i>..'  # no '/' (a file name cannot hold one), no leading '.'
    os.makedirs(os.path.join(cap, 'kernel_dump', k))
    for f in os.listdir(os.path.join(src, k)):
        shutil.copy(os.path.join(src, k, f),
                    os.path.join(cap, 'kernel_dump', k, f.replace('add_kernel', name)))
    out = os.path.join(d, 'r')
    code, _, err = run('--html', out, cap, '--quiet')
    assert code == 0, err
    assert sorted(os.listdir(d)) == ['cap', 'r'], os.listdir(d)
    for f in listing(out):
        assert re.fullmatch(r'[A-Za-z0-9_./-]+', f), f
    html = open(os.path.join(out, 'index.html')).read()
    assert 'k&lt;b&gt;"&lt;i&gt;..' in html or 'k&lt;b&gt;&quot;&lt;i&gt;..' in html, html
    assert '<b>' not in html and '<i>' not in html
    for f in listing(out):
        if f.startswith('data/'):
            t = open(os.path.join(out, f), encoding='utf-8').read()
            assert '<' not in t and '>' not in t, f


for i, (name, err) in enumerate(results, 1):
    print(('ok' if err is None else 'not ok') + ' %d - %s' % (i, name))
    if err:
        print('# ' + err)
print('1..%d' % len(results))
