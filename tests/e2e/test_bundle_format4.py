#!/usr/bin/env python3
"""Bundle format_version 4 (docs/bundle.md, "Kernel files stored once"): a
kernel file whose bytes another kernel of the bundle already has is written
once, and every file is FILE.zst (one zstd frame) when that is smaller.

On sample_dumps/raw/fp8_matmul_three_tkview (three compiles of
fp8_matmul_kernel, made by `tkview capture`).  Read by hand with md5sum over
its cache/ folders (HJJN3AZI, L5BBYL4V, Q4QOD7IK):
  - NAME.source and NAME.ttir: the same in all three;
  - NAME.ttgir and NAME.llir: the same in HJJN3AZI and Q4QOD7IK (the
    num_stages 3 pair, enable_fp_fusion true and false), another in L5BBYL4V;
  - NAME.ptx, .sass_gi, .sass_lr, .cubin, .json: three different each.
So 9 files x 3 kernels = 27 entries, of which 1+1+2+2+3*5 = 21 are distinct.

The format-3 twin of a format-4 bundle (each kernel's files plain, in its
own folder, format_version 3) is made here from the format-4 one (libzstd
through ctypes, tests/support/zstd_file.py): both must give the same
output, paths apart.  A format-3 bundle written before this change (tests/bundles/format3_ws_store) is still
read.  Prints TAP.

Usage: test_bundle_format4.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps/)
"""
import base64
import glob
import gzip
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import Skip, finish, test  # noqa: E402
from zstd_file import read_kernel_file  # noqa: E402

TKVIEW = sys.argv[1]
RAW = os.path.join(os.environ['TK_TEST_SAMPLES'], 'raw')
HERE = os.path.dirname(os.path.abspath(__file__))
TMP = tempfile.mkdtemp(prefix='bundle-format4-')
KFILES = ('ttir', 'ttgir', 'llir', 'ptx', 'sass_gi', 'sass_lr', 'cubin', 'json', 'source')
_made = {}


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def raw_capture():
    if 'raw' not in _made:
        tar = os.path.join(RAW, 'fp8_matmul_three_tkview.tar.xz')
        if not os.path.exists(tar) or not shutil.which('tar'):
            raise Skip('no %s or no tar' % tar)
        subprocess.run(['tar', 'xJf', tar, '-C', TMP], check=True)
        _made['raw'] = os.path.join(TMP, 'fp8_matmul_three_tkview')
    return _made['raw']


def bundle4():
    """The format-4 bundle of the capture (written once)."""
    if 'b4' not in _made:
        out = os.path.join(TMP, 'b4')
        code, _, err = run('bundle', raw_capture(), '-o', out)
        assert code == 0, err
        _made['b4'] = out
    return _made['b4']


def manifest(b):
    with open(os.path.join(b, 'manifest.json')) as f:
        return json.load(f)


def entries(m):
    """(kernel hash, key, path) of every stage and kernel file listed."""
    out = []
    for k in m['kernels']:
        for key, rel in list(k.get('stages', {}).items()) + list(k.get('files', {}).items()):
            out.append((k['hash'], key, rel))
    return out


def inflate(path):
    return read_kernel_file(path)


def format3_twin(b4, out):
    """B4 as format 3: each kernel's files plain in its own folder."""
    shutil.copytree(b4, out)
    m = manifest(out)
    m['format_version'] = 3
    for k in m['kernels']:
        for group in ('stages', 'files'):
            for key, rel in k.get(group, {}).items():
                plain = rel[:-4] if rel.endswith('.zst') else rel
                mine = k['folder'] + '/' + os.path.basename(plain)
                dest = os.path.join(out, mine)
                if not os.path.exists(dest):
                    with open(dest, 'wb') as f:
                        f.write(inflate(os.path.join(b4, rel)))
                k[group][key] = mine
    for k in m['kernels']:
        for z in glob.glob(os.path.join(out, k['folder'], '*.zst')):
            os.unlink(z)
    with open(os.path.join(out, 'manifest.json'), 'w') as f:
        json.dump(m, f, indent=2)
    return out


def kernel_files(b):
    """The files of the bundle's kernel folders, passes/ left out."""
    got = []
    for k in manifest(b)['kernels']:
        d = os.path.join(b, k['folder'])
        got += [n for n in os.listdir(d) if os.path.isfile(os.path.join(d, n))]
    return got


@test
def shared_files_are_written_once():
    b = bundle4()
    m = manifest(b)
    assert m['format_version'] == 4, m['format_version']
    ks = {k['hash'][:8]: k for k in m['kernels']}
    assert len(ks) == 3, list(ks)
    # 21 distinct files of 27 (the docstring), each written once.
    files = kernel_files(b)
    assert len(files) == 21, sorted(files)
    listed = entries(m)
    assert len(listed) == 27 and len({rel for _, _, rel in listed}) == 21, listed
    by_key = {}
    for h, key, rel in listed:
        by_key.setdefault(key, set()).add(rel)
    assert len(by_key['source_ttir']) == 1 and len(by_key['ttir']) == 1, by_key
    assert len(by_key['ttgir']) == 2 and len(by_key['llir']) == 2, by_key
    for key in ('ptx', 'sass', 'sass_lr', 'cubin', 'metadata'):
        assert len(by_key[key]) == 3, (key, by_key[key])


@test
def each_file_is_the_captures_bytes():
    """Every listed file, inflated, is the raw capture's file of that kernel
    (its cache/ folder named by the NAME.json hash), and a FILE.zst is one
    zstd frame that says its content size."""
    raw = raw_capture()
    b = bundle4()
    folders = {}
    for j in glob.glob(os.path.join(raw, 'cache', '*', 'fp8_matmul_kernel.json')):
        with open(j) as f:
            folders[json.load(f)['hash']] = os.path.dirname(j)
    ext = {'source_ttir': 'source', 'metadata': 'json', 'sass': 'sass_gi'}
    zst = 0
    for h, key, rel in entries(manifest(b)):
        p = os.path.join(b, rel)
        if rel.endswith('.zst'):
            zst += 1
            with open(p, 'rb') as f:
                head = f.read(6)
            # magic 28 b5 2f fd; the frame header descriptor's top two bits
            # (content size field) are set or the single-segment bit is
            assert head[:4] == b'\x28\xb5\x2f\xfd' and (head[4] & 0xe0), (rel, head)
        want = os.path.join(folders[h], 'fp8_matmul_kernel.' + ext.get(key, key))
        with open(want, 'rb') as f:
            assert inflate(p) == f.read(), (rel, want)
    # the cubins may stay plain (binary, little to gain); the text shrinks
    assert zst >= 15, zst


@test
def writing_twice_gives_the_same_bytes():
    b = bundle4()
    again = os.path.join(TMP, 'b4-again')
    code, _, err = run('bundle', raw_capture(), '-o', again)
    assert code == 0, err

    def digests(root):
        out = {}
        for d, _, names in os.walk(root):
            for n in names:
                if n == 'manifest.json':
                    continue
                with open(os.path.join(d, n), 'rb') as f:
                    out[os.path.relpath(os.path.join(d, n), root)] = hashlib.sha256(f.read()).hexdigest()
        return out

    assert digests(b) == digests(again)
    a, c = manifest(b), manifest(again)
    a.pop('created'), c.pop('created')
    assert a == c


def same_output(b4, b3, *args):
    """The output of ARGS on both bundles, the bundles' paths made equal."""
    code4, out4, err4 = run(*args[:1], b4, *args[1:])
    code3, out3, err3 = run(*args[:1], b3, *args[1:])
    assert code4 == code3 == 0, (args, err4[-400:], err3[-400:])
    norm = [re.sub(r'\.zst\b', '', s.replace(b4, 'B').replace(b3, 'B'))
            for s in (out4, out3)]
    # a kernel's file may be named in another kernel's folder
    norm = [re.sub(r'fp8_matmul_kernel-[A-Za-z0-9_-]+/', 'K/', s) for s in norm]
    assert norm[0] == norm[1], args
    return out4


@test
def format4_reads_as_its_format3_twin():
    b4 = bundle4()
    b3 = format3_twin(b4, os.path.join(TMP, 'b3'))
    assert kernel_files(b3) and len(kernel_files(b3)) == 27
    h = manifest(b4)['kernels'][0]['hash'][:8]
    same_output(b4, b3, 'info', '--json')
    same_output(b4, b3, 'info')
    out = same_output(b4, b3, 'bind', '--source', 'fp8_matmul_three.py:41',
                      '--kernel', 'fp8_matmul_kernel:' + h, '--json')
    assert json.loads(out), out
    same_output(b4, b3, 'passes', '--kernel', 'fp8_matmul_kernel:' + h, '--json')
    same_output(b4, b3, 'configs', '--json')
    same_output(b4, b3, 'hot', '--kernel', 'fp8_matmul_kernel:' + h, '--json')


@test
def format4_report_is_its_format3_twins():
    b4 = bundle4()
    b3 = os.path.join(TMP, 'b3')
    if not os.path.isdir(b3):
        format3_twin(b4, b3)
    outs = []
    for b in (b4, b3):
        out = os.path.join(TMP, 'html-' + os.path.basename(b))
        code, _, err = run('--html', out, b)
        assert code == 0, err[-400:]
        outs.append(out)
    names = [sorted(os.path.relpath(os.path.join(d, n), o)
                    for d, _, ns in os.walk(o) for n in ns) for o in outs]
    assert names[0] == names[1]
    for rel in names[0]:
        got = []
        for o, b in zip(outs, (b4, b3)):
            with open(os.path.join(o, rel), 'rb') as f:
                t = f.read()
            # the report's data files hold gzip in base64 (TK.putz)
            t = re.sub(rb'"(H4sI[A-Za-z0-9+/=]+)"',
                       lambda x: gzip.decompress(base64.b64decode(x.group(1))), t)
            t = t.replace(b.encode(), b'B')
            t = re.sub(rb'\.zst\b', b'', t)
            got.append(re.sub(rb'fp8_matmul_kernel-[A-Za-z0-9_-]+/', b'K/', t))
        assert got[0] == got[1], rel


def copy_bundle(name):
    out = os.path.join(TMP, name)
    shutil.copytree(bundle4(), out)
    return out


def ttir_of(b):
    return manifest(b)['kernels'][0]['stages']['ttir']


def frame(size, body=b''):
    """A zstd frame header that declares SIZE bytes of content (8-byte
    field, single segment, no checksum) and one last raw block BODY."""
    blk = (len(body) << 3) | 1
    return b'\x28\xb5\x2f\xfd' + bytes([0xe0]) + struct.pack('<Q', size) + \
        struct.pack('<I', blk)[:3] + body


def info_err(b):
    code, out, err = run('info', b, '--json')
    return code, json.loads(out) if out.strip() else None, err


@test
def a_zst_that_inflates_past_its_limit_is_refused():
    """A TTIR.zst whose frame says 2 GiB: refused before anything is
    allocated, naming the file; the other stages still read."""
    b = copy_bundle('bomb')
    rel = ttir_of(b)
    assert rel.endswith('.zst'), rel
    with open(os.path.join(b, rel), 'wb') as f:
        f.write(frame(2 << 30))
    code, r, err = info_err(b)
    assert code == 0, err
    assert (os.path.join(b, rel) + ': error: cannot read this stage file: inflates to 2147483648 bytes, '
            'over the 1 GiB a stage file may have') in err, err[-600:]
    assert all(k['stages']['ttgir'] and not k['stages']['ttir'] for k in r['kernels']), r


@test
def a_zst_that_lies_or_is_cut_or_is_not_zstd_is_refused():
    cases = [
        # says 100 bytes, holds 3
        (frame(100, b'abc'),
         'a damaged zstd frame, or one that does not hold the 100 bytes it says'),
        # the real frame cut in the middle
        (None, 'a damaged or cut zstd frame'),
        # not zstd at all
        (b'module {\n}\n', 'not a zstd frame, though its name ends in .zst'),
    ]
    for i, (data, why) in enumerate(cases):
        b = copy_bundle('bad%d' % i)
        p = os.path.join(b, ttir_of(b))
        if data is None:
            with open(p, 'rb') as f:
                whole = f.read()
            data = whole[:len(whole) // 2]
        with open(p, 'wb') as f:
            f.write(data)
        code, r, err = info_err(b)
        assert code == 0, err
        assert os.path.join(b, ttir_of(b)) + ': error: cannot read this stage file: ' + why in err, \
            (i, err[-600:])


@test
def a_zst_path_out_of_the_bundle_is_refused():
    """A manifest path climbing out, and a FILE.zst that is a link out of
    the bundle to a valid frame: neither is read."""
    b = copy_bundle('escape')
    outside = os.path.join(TMP, 'outside.ttgir.zst')
    shutil.copy(os.path.join(b, manifest(b)['kernels'][0]['stages']['ttgir']), outside)
    m = manifest(b)
    m['kernels'][0]['stages']['ttgir'] = '../outside.ttgir.zst'
    with open(os.path.join(b, 'manifest.json'), 'w') as f:
        json.dump(m, f)
    rel = m['kernels'][1]['stages']['llir']
    os.unlink(os.path.join(b, rel))
    os.symlink(outside, os.path.join(b, rel))
    code, r, err = info_err(b)
    assert code == 0, err
    assert 'refusing path "../outside.ttgir.zst"' in err, err[-600:]
    assert 'refusing path "%s"' % rel in err and 'through a symbolic link' in err, err[-600:]
    assert not r['kernels'][0]['stages']['ttgir'], r['kernels'][0]['stages']
    assert not r['kernels'][1]['stages']['llir'], r['kernels'][1]['stages']


@test
def nvdisasm_gets_a_plain_copy_of_a_zst_cubin():
    """A format-4 bundle whose first kernel lost its life ranges: tkview has
    nvdisasm (a fake that accepts only a plain ELF file, not a .zst, and
    prints the capture's own .sass_lr) make them from a plain copy of
    CUBIN.zst in $TMPDIR, removed afterwards; the peak is the one the
    bundle's own file gave (info above: 164 registers at SASS line 460)."""
    b = copy_bundle('nolr')
    m = manifest(b)
    k = m['kernels'][0]
    assert k['files']['cubin'].endswith('.cubin.zst'), k['files']
    lr = os.path.join(TMP, 'real.sass_lr')
    with open(lr, 'wb') as f:
        f.write(inflate(os.path.join(b, k['files']['sass_lr'])))
    os.unlink(os.path.join(b, k['files'].pop('sass_lr')))
    with open(os.path.join(b, 'manifest.json'), 'w') as f:
        json.dump(m, f)
    fake = os.path.join(TMP, 'nvdisasm-fake')
    with open(fake, 'w') as f:
        f.write('#!/bin/sh\n'
                'case "$5" in *.zst) echo "fake nvdisasm: given $5" >&2; exit 3;; esac\n'
                'if [ "$1 $2 $3 $4" = "--print-life-ranges --life-range-mode count -c" ] &&\n'
                '   [ "$(head -c 4 "$5" | od -An -tx1 | tr -d " ")" = "7f454c46" ]; then\n'
                '  exec cat "%s"\n'
                'fi\n'
                'echo "fake nvdisasm: not a plain cubin: $*" >&2; exit 3\n' % lr)
    os.chmod(fake, 0o755)
    tmp = os.path.join(TMP, 'nolr-tmp')
    os.mkdir(tmp)
    env = dict(os.environ, TKVIEW_NVDISASM=fake, TMPDIR=tmp,
               XDG_CACHE_HOME=os.path.join(TMP, 'nolr-cache'))
    p = subprocess.run([TKVIEW, 'info', b, '--json'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, timeout=600)
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert 'made the register life ranges of 1 kernel with ' in err, err
    regs = json.loads(p.stdout)['kernels'][0]['cost']['registers']
    assert regs['peak']['gpr'] == 164 and regs['peak_sass_line'] == 460, regs
    assert os.listdir(tmp) == [], os.listdir(tmp)


@test
def missing_stage_hints_unpack_the_binary_first():
    """A stage missing beside a CUBIN.zst or HSACO.zst: the command the
    message gives works on the plain file (nvdisasm and llvm-objdump do not
    read zstd)."""
    b = copy_bundle('nosass')
    m = manifest(b)
    k = m['kernels'][0]
    del k['stages']['sass']
    with open(os.path.join(b, 'manifest.json'), 'w') as f:
        json.dump(m, f)
    code, r, err = info_err(b)
    cubin = os.path.join(b, k['files']['cubin'])
    assert cubin.endswith('.zst'), cubin
    assert r['kernels'][0]['missing_stages']['sass'].endswith(
        'make one with: zstd -dc %s > fp8_matmul_kernel.cubin && '
        'nvdisasm -c -gi fp8_matmul_kernel.cubin' % cubin), r['kernels'][0]['missing_stages']
    amd = os.path.join(TMP, 'amd4')
    code, _, err = run('bundle', os.path.join(os.environ['TK_TEST_SAMPLES'], 'amd_gfx942'),
                       '-o', amd)
    assert code == 0, err
    m = manifest(amd)
    k = m['kernels'][0]
    del k['stages']['amdgcn']
    with open(os.path.join(amd, 'manifest.json'), 'w') as f:
        json.dump(m, f)
    code, r, err = info_err(amd)
    hsaco = os.path.join(amd, k['files']['hsaco'])
    assert hsaco.endswith('.hsaco.zst'), hsaco
    why = r['kernels'][0]['missing_stages']['amdgcn']
    assert ('zstd -dc %s > %s.hsaco && llvm-objdump-19 -d --line-numbers --mcpu=gfx942 '
            '%s.hsaco > %s.amdgcn_dis' % (hsaco, k['name'], k['name'], k['name'])) in why, why


@test
def unusable_manifest_still_reads_the_zst_files():
    """A manifest of a newer format_version: the folder is read as kernel
    folders, FILE.zst as FILE.  A kernel whose file is another's has it no
    more (8720e1fd: its TTIR, TTGIR and LLVM IR are 3a52dd83's)."""
    b = copy_bundle('newer')
    m = manifest(b)
    m['format_version'] = 99
    with open(os.path.join(b, 'manifest.json'), 'w') as f:
        json.dump(m, f)
    code, r, err = info_err(b)
    assert code == 0 and 'format_version 99' in err, err[-400:]
    got = {k['hash'][:8]: sorted(s for s, v in k['stages'].items() if v) for k in r['kernels']}
    assert got['3a52dd83'] == ['llir', 'ptx', 'sass', 'ttgir', 'ttir'], got
    assert got['8720e1fd'] == ['ptx', 'sass'], got
    assert r['kernels'][0]['stages']['ttir']['path'].endswith('.ttir.zst')


@test
def format_3_bundle_still_read():
    """tests/bundles/format3_ws_store: diag_ws_store bundled at 97d2fcc
    (format_version 3: plain kernel files, refs into dumps/pool.zst): its
    stages and passes are those of the raw capture."""
    old = os.path.join(HERE, '..', 'bundles', 'format3_ws_store')
    m = manifest(old)
    assert m['format_version'] == 3
    assert not glob.glob(os.path.join(old, m['kernels'][0]['folder'], '*.zst'))
    tar = os.path.join(RAW, 'diag_ws_store.tar.xz')
    if not os.path.exists(tar):
        raise Skip('no ' + tar)
    subprocess.run(['tar', 'xJf', tar, '-C', TMP], check=True)
    raw = os.path.join(TMP, 'diag_ws_store')
    code, a, err = run('passes', raw, '--json')
    assert code == 0, err
    code, b, err = run('passes', old, '--json')
    assert code == 0 and 'damaged' not in err, err
    a, b = json.loads(a), json.loads(b)

    def facts(r):
        return [(p['pass'], p['level'], p['effect'], p['added'], p['removed'])
                for k in r['kernels'] for p in k['passes']]

    # `tkview passes` of the raw capture: "31 passes (13 changed, 18
    # unchanged)" from its 32 MLIR dump headers (grep -c "IR Dump"
    # mlir_passes.txt) and stderr.txt's 4 WarpSpec dumps
    assert a['kernels'][0]['summary'] == {'passes': 31, 'changed': 13, 'unchanged': 18,
                                          'unknown': 0}, a['kernels'][0]['summary']
    assert facts(a) == facts(b), (len(facts(a)), len(facts(b)))
    code, out, err = run('info', old, '--json')
    assert code == 0, err
    [k] = json.loads(out)['kernels']
    assert set(k['stages']) >= {'ttir'}, k


sys.exit(finish())
