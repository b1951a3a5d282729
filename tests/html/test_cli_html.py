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
    for f in ['index.html', 'tkview-report.json', 'assets/tk.js', 'assets/app.js', 'assets/report.css',
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
    # SASS as a pane shows it (tk_stage_line_display()): add_kernel.sass_gi
    # line 65 is 8 blanks, "/*01b0*/", 19 blanks, "S2UR UR5, SR_CgaCtaId ;";
    # line 61 has a predicate "@!P1 LDG.E.128 ..." after 14 blanks.
    text = open(os.path.join(out, 'data/k001/sass.text.js')).read()
    m = re.fullmatch(r'TK\.putz\("k001/sass\.text","([A-Za-z0-9+/=]+)"\);\n', text)
    sass = json.loads(zlib.decompress(base64.b64decode(m.group(1)), 16 + 15))
    assert sass[64] == '/*01b0*/  S2UR UR5, SR_CgaCtaId ;', sass[64]
    assert sass[60] == "/*0190*/  @!P1 LDG.E.128 R4, desc[UR6][R20.64+0x800] ;", sass[60]


def depends_on(head):
    """The module names a script's head comment lists after 'Depends on:'
    (each may be followed by what it uses, in parentheses)."""
    m = re.search(r'Depends on: (.*?)(?:\n \* Interface:|\*/)', head, re.S)
    assert m, 'no "Depends on:" in ' + head
    text = re.sub(r'\([^()]*\)', '', m.group(1).replace('\n *', ' '))
    names = [w.strip(' .\n') for w in text.split(',')]
    return [] if names == ['nothing'] else names


@test
def scripts_are_modules_each_page_lists(d):
    """assets/*.js: one module per file (tk.js's registry), each starting
    with a comment that says its job and what it depends on, the
    dependencies it registers being the ones it says; the kernel page lists
    one script, assets/report.js: the registry first, every module once (but
    compare.js, a comparison page's), each as written; then its data and
    its first view's; only tk.js puts anything on window."""
    out = os.path.join(d, 'r')
    code, _, err = run('--html', out, VA, '--quiet')
    assert code == 0, err
    names = sorted(f for f in os.listdir(os.path.join(out, 'assets')) if f.endswith('.js') and f != 'report.js')
    assert 'tk.js' in names and 'app.js' in names and len(names) > 5, names
    for f in names:
        src = open(os.path.join(out, 'assets', f)).read()
        assert src.startswith('/* %s - ' % f), (f, src[:60])
        head = src[:src.index('*/') + 2]
        assert 'Job: ' in head, (f, 'no "Job:" in its head comment')
        deps = depends_on(head)
        defs = re.findall(r"TK\.define\('([a-z]+)', \[([^\]]*)\]", src)
        if f == 'tk.js':
            assert defs == [] and deps == [], (f, defs, deps)
            continue
        assert len(defs) == 1 and defs[0][0] == f[:-3], (f, defs)
        registered = re.findall(r"'([a-z]+)'", defs[0][1])
        assert registered == deps, (f, 'registers', registered, 'says', deps)
        assert not re.search(r'window\.\w+\s*=', src), (f, 'puts something on window')
        assert '.inspect()' not in src, (f, 'reads another module\'s state (inspect is for the tests)')
    page = open(os.path.join(out, next(f for f in os.listdir(out) if f.startswith('k001-')))).read()
    scripts = re.findall(r'<script src="([^"]+)" defer></script>', page)
    # then the data of its first view (page_kernel.c): add_kernel has SASS
    # (add_kernel.sass: cost.js), no compiler message, opens on TTGIR and is
    # written in vector_add.py, the only source file (s0)
    assert scripts == ['assets/report.js', 'data/files.js', 'data/k001/meta.js',
                       'data/k001/cost.js', 'data/k001/ttgir.text.js',
                       'data/k001/ttgir.bind.js', 'data/src/s0.js'], scripts
    # the bundle: the modules one after another, each whole, tk.js first;
    # compare.js is the comparison pages' own entry point (test_compare.mjs)
    bundle = open(os.path.join(out, 'assets', 'report.js')).read()
    heads = re.findall(r'^/\* ([a-z]+\.js) - ', bundle, re.M)
    assert heads[0] == 'tk.js', heads
    assert sorted(heads) == [f for f in names if f != 'compare.js'], heads
    assert bundle == ''.join(open(os.path.join(out, 'assets', f)).read() for f in heads), 'not the modules joined'


@test
def compare_of_a_kernel_not_there_says_which_and_what_to_do(d):
    # vector_add has one kernel (add_kernel, index 0): "0:1" names no
    # kernel 1, and the message says so, how many there are and the way
    # out (another bundle as PATH_B); "0" is no pair at all.
    code, _, err = run('html', os.path.join(d, 'r'), VA, '--compare', '0:1', '--quiet')
    assert code != 0 and 'no kernel "1"' in err and 'it has 1 kernel (index 0' in err, err
    assert 'PATH_B' in err, err
    code, _, err = run('html', os.path.join(d, 'r'), VA, '--compare', '0', '--quiet')
    assert code != 0 and '0: wants K:K2' in err, err


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
    # no script at all: the index has nothing dynamic, and the note none
    assert re.findall(r'<script[^>]*>', html) == [], re.findall(r'<script[^>]*>', html)


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


def putz(path):
    """The JSON of a data file written as TK.putz("KEY", "BASE64 GZIP")."""
    m = re.fullmatch(r'TK\.putz\("[^"]*","([A-Za-z0-9+/=]+)"\);\n', open(path).read())
    assert m, path
    return json.loads(zlib.decompress(base64.b64decode(m.group(1)), 16 + 15))


def mlir_kept(lines, header):
    """Kept lines of the MLIR dump whose header is line HEADER (1-based): the
    body up to the next `// -----// IR Dump` header, without `#locN = loc(`
    alias lines and blank lines (tk_normalize.h), numbered from 1 after the
    header."""
    assert lines[header - 1].startswith('// -----// IR Dump Before'), header
    t, ln = [], []
    i = header
    while i < len(lines) and not lines[i].startswith('// -----// IR Dump'):
        if not re.match(r'#loc[0-9]* = loc\(', lines[i]) and lines[i].strip():
            t.append(lines[i])
            ln.append(i - header + 1)
        i += 1
    return t, ln


def apply_step(text, step):
    """html/pass_chain.h: the text after a pass from the text before it."""
    if not step:
        return text
    old, h, add = text[0], step['h'], step['t']
    nb = len(add) + sum(h[2::3])
    new, b, ti = [None] * nb, 0, 0
    for a0, b0, n in zip(h[0::3], h[1::3], h[2::3]):
        while b < b0:
            new[b], b, ti = add[ti], b + 1, ti + 1
        new[b:b + n] = old[a0:a0 + n]
        b += n
    while b < nb:
        new[b], b, ti = add[ti], b + 1, ti + 1
    for k, u in zip(step['u'][0::2], step['u'][1::2]):
        new[k] = u
    runs, ln = step['n'], []
    for r in range(0, len(runs), 2):
        end = runs[r + 2] if r + 2 < len(runs) else nb
        ln += [runs[r + 1] + k - runs[r] for k in range(runs[r], end)]
    return new, ln


@test
def compiled_block_chains_rebuild_every_mlir_dump(d):
    # compiled_block: 16 kernels, their MLIR dumps interleaved in one
    # mlir_passes.txt; their pass data is made two kernels at a time.  For
    # every kernel, the chain's first text and each step applied to the text
    # before it give the kept lines of the dump each pass names as its text
    # after, read here from the file with a plain filter.
    cap = os.path.join(DUMPS, 'compiled_block')
    lines = open(os.path.join(cap, 'mlir_passes.txt'), encoding='utf-8').read().split('\n')
    out = os.path.join(d, 'r')
    code, _, err = run('--html', out, cap, '--quiet')
    assert code == 0, err
    kernels = sorted(f for f in os.listdir(os.path.join(out, 'data')) if re.fullmatch(r'k\d{3}', f))
    assert len(kernels) == 16, kernels
    checked = 0
    for k in kernels:
        ps = putz(os.path.join(out, 'data', k, 'passes.js'))
        assert len(ps['chains']) >= 1, (k, ps['chains'])
        for c, (first, last) in enumerate(ps['chains']):
            ch = putz(os.path.join(out, 'data', k, 'pc-%d.js' % c))
            assert (ch['from'], ch['to']) == (first, last)
            if ps['passes'][first]['level'] not in ('ttir', 'ttgir', 'llvm-dialect'):
                continue  # LLVM IR and machine code: the test below
            m = re.fullmatch(r'mlir_passes\.txt:(\d+)', ps['passes'][first]['before'])
            assert m, ps['passes'][first]['before']
            t, ln = mlir_kept(lines, int(m.group(1)))
            assert ch['base']['t'] == t, (k, first)
            text = (t, ln)
            for i, step in zip(range(first, last + 1), ch['steps']):
                text = apply_step(text, step)
                m = re.fullmatch(r'mlir_passes\.txt:(\d+)', ps['passes'][i]['after'])
                if m:
                    assert list(text) == list(mlir_kept(lines, int(m.group(1)))), (k, i)
                    checked += 1
    # 16 kernels of some 60 MLIR passes each (tkview passes compiled_block)
    assert checked > 16 * 50, checked
    # the same report on a second run, whatever thread made which kernel
    out2 = os.path.join(d, 's')
    code, _, err = run('--html', out2, cap, '--quiet')
    assert code == 0, err
    assert listing(out) == listing(out2)
    for f in listing(out):
        a, b = os.path.join(out, f), os.path.join(out2, f)
        if f.startswith('data/k') and f.endswith('/passes.js'):
            ja, jb = putz(a), putz(b)
            ja['touch'].sort()
            jb['touch'].sort()
            assert ja == jb, f
        elif open(a, 'rb').read() != open(b, 'rb').read():
            assert putz(a) == putz(b), f

CHATTER = re.compile(r'\s*(Running (pass|analysis)|Invalidating (analysis: |all non-preserved analyses)|Clearing all analysis results for: |Skipping pass)')
HEADER = re.compile(r'(; )?\*\*\* IR (Dump|Pass|Deleted)|# \*\*\* IR Dump|// -----// IR Dump')


def dump_body(lines, header):
    """The body of the LLVM or machine code dump whose header is line HEADER
    (1-based): up to the next dump header of any kind, without the pass
    manager's chatter (`Running pass: ...`) printed in between."""
    assert HEADER.match(lines[header - 1]), lines[header - 1]
    end = header
    while end < len(lines) and not HEADER.match(lines[end]):
        end += 1
    return [l for l in lines[header:end] if not CHATTER.match(l)]


def function_of(body, name, machine):
    """(start, end) of function NAME in BODY: LLVM `define ... @NAME(` to
    its `}`, machine code `# Machine code for function NAME:` to `# End
    machine code for function NAME.`."""
    for i, l in enumerate(body):
        if (machine and l.startswith('# Machine code for function %s:' % name)) or \
           (not machine and l.startswith('define ') and ('@%s(' % name) in l):
            j = i
            while not (body[j].startswith('# End machine code for function') if machine else body[j] == '}'):
                j += 1
            return i, j + 1
    raise AssertionError('no function %s' % name)


def side_text(lines, desc, machine):
    """A side as the timeline describes it (tk_timeline_side_describe()):
    `stderr.txt:N` a whole dump, `stderr.txt:N with F from stderr.txt:X`
    that module with F as dump X prints it, `stderr.txt:N (F)` or `F from
    stderr.txt:X, ...` functions.  None for other sides (final stages)."""
    m = re.fullmatch(r'stderr\.txt:(\d+)', desc)
    if m:
        return dump_body(lines, int(m.group(1)))
    m = re.fullmatch(r'stderr\.txt:(\d+) \(([^()]*)\)', desc)
    if m:
        body = dump_body(lines, int(m.group(1)))
        out = []
        for f in m.group(2).split(', '):
            a, b = function_of(body, f, machine)
            out += body[a:b]
        return out
    base, pieces = None, desc
    m = re.fullmatch(r'stderr\.txt:(\d+) with (.*)', desc)
    if m:
        base, pieces = dump_body(lines, int(m.group(1))), m.group(2)
    funcs = re.findall(r'([^ ,]+) from stderr\.txt:(\d+)', pieces)
    if not funcs:
        return None
    if base is None:
        out = []
        for f, x in funcs:
            body = dump_body(lines, int(x))
            a, b = function_of(body, f, machine)
            out += body[a:b]
        return out
    for f, x in funcs:
        body = dump_body(lines, int(x))
        a, b = function_of(body, f, machine)
        c, d = function_of(base, f, machine)
        base = base[:c] + body[a:b] + base[d:]
    return base


def kept(text, machine):
    """tk_normalize.h's kept lines: not blank, not an LLVM `!N = !DI...` /
    `!N = distinct !DI...` node, not a machine code line that is only a
    `;` comment."""
    out = []
    for l in text:
        if not l.strip():
            continue
        if not machine and re.match(r'!\d+ = (distinct )?!DI', l):
            continue
        if machine and not l.split(';')[0].strip():
            continue
        out.append(l)
    return out


def check_llvm_chains(d, cap, name, min_checked):
    """Every chain of LLVM IR or machine code passes (whole modules, loop
    passes stepped over) rebuilds, pass by pass, the text each pass names
    as its text after, put together here from stderr.txt by hand."""
    lines = open(os.path.join(cap, 'stderr.txt'), encoding='utf-8', errors='replace').read().split('\n')
    out = os.path.join(d, name)
    code, _, err = run('--html', out, cap, '--quiet')
    assert code == 0, err
    checked = chains = 0
    for k in sorted(f for f in os.listdir(os.path.join(out, 'data')) if re.fullmatch(r'k\d{3}', f)):
        ps = putz(os.path.join(out, 'data', k, 'passes.js'))
        for c, (first, last) in enumerate(ps['chains']):
            level = ps['passes'][first]['level']
            if level not in ('llvm-ir', 'codegen-ir', 'machine'):
                continue
            chains += 1
            machine = level == 'machine'
            ch = putz(os.path.join(out, 'data', k, 'pc-%d.js' % c))
            base = side_text(lines, ps['passes'][first]['before'], machine)
            assert base is not None, ps['passes'][first]['before']
            assert ch['base']['t'] == kept(base, machine), (k, first)
            text = (ch['base']['t'], [])
            for i, step in zip(range(first, last + 1), ch['steps']):
                p = ps['passes'][i]
                if p.get('loop'):
                    assert step is None and 'ch' not in p, (k, i)
                    continue
                assert p.get('ch') == c, (k, i)
                text = apply_step(text, step)
                want = side_text(lines, p['after'], machine)
                if want is not None:
                    assert text[0] == kept(want, machine), (k, i, p['pass'], p['after'])
                    checked += 1
    assert chains >= 2 and checked >= min_checked, (chains, checked)
    print("# %s: %d LLVM IR / machine code chains, %d texts after a pass rebuilt" % (name, chains, checked))


@test
def llvm_and_machine_code_chains_rebuild_every_dump(d):
    # vector_add: LLVM IR and codegen IR passes 74-226 (one chain: module
    # passes, function passes and the legacy codegen passes), machine code
    # 228-263 (tkview passes vector_add)
    check_llvm_chains(d, os.path.join(DUMPS, 'vector_add'), 'va', 180)
    # persistent_tma_matmul: loop passes inside the chain (LoopRotatePass,
    # LICMPass on loop ...), stepped over
    check_llvm_chains(d, os.path.join(DUMPS, 'persistent_tma_matmul'), 'ptm', 180)


for i, (name, err) in enumerate(results, 1):
    print(('ok' if err is None else 'not ok') + ' %d - %s' % (i, name))
    if err:
        print('# ' + err)
print('1..%d' % len(results))
