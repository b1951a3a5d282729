#!/usr/bin/env python3
"""`tkview bind --ir` (and `hot --kernel`) of one kernel of a bundle reads
that kernel's stage files only (cli_load_for_kernel():
tk_bundle_load_on_demand()), numbers the
kernels as `info` does, and falls back to loading the whole bundle when
anything is wrong with the kernel asked for or with the manifest.

On sample_dumps/matmul_configs saved by `tkview bundle` (format 4, what a
capture writes): three compiles of matmul_kernel, each with its MLIR pass
dumps.  Read by hand from the saved manifest.json: the kernels, numbered by
name then hash as `info` lists them, are matmul_kernel 01cca3c5..., 0cfc4f76...
and b4f5182e...; line 20 of each ttgir (zstd -dc NAME.ttgir.zst | sed -n 20p)
is the text bind must quote.  Prints TAP.

Usage: test_bind_one_kernel.py TKVIEW   (TK_TEST_SAMPLES names sample_dumps/)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from tap import finish, test  # noqa: E402
from zstd_file import read_kernel_file  # noqa: E402

TKVIEW = sys.argv[1]
SAMPLE = os.path.join(os.environ['TK_TEST_SAMPLES'], 'matmul_configs')
TMP = tempfile.mkdtemp(prefix='bind-one-kernel-')
ENV = dict(os.environ, TKVIEW_NVDISASM='none', XDG_CACHE_HOME=os.path.join(TMP, 'cache'))


def run(*args):
    p = subprocess.run([TKVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300, env=ENV)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def saved(name):
    out = os.path.join(TMP, name)
    rc, _, err = run('bundle', '-q', SAMPLE, '-o', out)
    assert rc == 0, err
    return out


def manifest(b):
    with open(os.path.join(b, 'manifest.json')) as f:
        return json.load(f)


def numbered(b):
    """The manifest's kernels in the order info numbers them."""
    return sorted(manifest(b)['kernels'], key=lambda k: (k['name'], k['hash']))


def ttgir_line(b, k, n):
    text = read_kernel_file(os.path.join(b, k['stages']['ttgir'])).decode()
    return text.split('\n')[n - 1].strip()


def bind_json(b, kernel, line=20):
    rc, out, err = run('bind', b, '--kernel', str(kernel), '--ir', 'ttgir:%d' % line, '--json')
    assert rc in (0, 1), (rc, err)
    return json.loads(out), err


BUNDLE = saved('b')
KERNELS = numbered(BUNDLE)


@test
def the_capture_read_by_hand():
    assert [k['hash'][:8] for k in KERNELS] == ['01cca3c5', '0cfc4f76', 'b4f5182e'], KERNELS
    assert all(k.get('passes') and k.get('metadata') for k in KERNELS)


@test
def each_kernel_by_index_is_the_one_info_numbers():
    for i, k in enumerate(KERNELS):
        j, err = bind_json(BUNDLE, i)
        assert (j['kernel']['name'], j['kernel']['hash']) == (k['name'], k['hash']), (i, j['kernel'])
        assert j['query']['text'].strip() == ttgir_line(BUNDLE, k, 20), (i, j['query'])
        assert err == '', err


@test
def by_hash_prefix_too():
    j, _ = bind_json(BUNDLE, KERNELS[2]['hash'][:6])
    assert j['kernel']['hash'] == KERNELS[2]['hash']


def broken_ttgir(name, i):
    """A copy of the bundle with kernel I's own ttgir made unreadable."""
    b = saved(name)
    k = numbered(b)[i]
    with open(os.path.join(b, k['stages']['ttgir']), 'wb') as f:
        f.write(b'\0not a zstd frame\n')
    return b, k


@test
def another_kernels_broken_stage_is_not_read():
    b, k2 = broken_ttgir('other', 2)
    for i in (0, 1):
        rc, out, err = run('bind', b, '--kernel', str(i), '--ir', 'ttgir:20')
        rc0, out0, _ = run('bind', BUNDLE, '--kernel', str(i), '--ir', 'ttgir:20')
        assert (rc, out.replace(b, 'B')) == (rc0, out0.replace(BUNDLE, 'B')), (i, out, out0)
        assert 'ttgir' not in err, err


@test
def hot_of_one_kernel_reads_only_it_too():
    b, k2 = broken_ttgir('hot', 2)
    for i in (0, 1):
        rc, out, err = run('hot', b, '--kernel', str(i), '--json')
        rc0, out0, _ = run('hot', BUNDLE, '--kernel', str(i), '--json')
        assert rc == rc0 == 0, (rc, rc0, err)
        assert json.loads(out)['kernels'][0]['hash'] == KERNELS[i]['hash']
        assert out.replace(b, 'B') == out0.replace(BUNDLE, 'B')
        assert 'ttgir' not in err, err


@test
def the_kernels_own_broken_stage_is_said_as_by_a_whole_load():
    b, k2 = broken_ttgir('own', 2)
    rc, out, err = run('bind', b, '--kernel', '2', '--ir', 'ttgir:20')
    assert k2['stages']['ttgir'] in err and 'cannot read this stage file' in err, err
    assert 'has no ttgir stage' in err, err
    assert rc == 1, (rc, err)  # CLI_EXIT_NOTHING
    # the same messages as info's load gives, and the same numbering
    rc_i, out_i, err_i = run('info', b)
    assert err.split('\n')[0] in err_i.split('\n'), (err, err_i)
    assert '[2] matmul_kernel  ' + k2['hash'] in out_i


@test
def a_kernel_that_loads_no_stage_and_has_no_passes_renumbers_the_rest():
    # Kernel 0 without its pass dumps and with no readable stage is skipped
    # by a whole load: the others move up, as info numbers them.
    b = saved('renumber')
    m = manifest(b)
    k0 = min(m['kernels'], key=lambda k: (k['name'], k['hash']))
    k0.pop('passes')
    for rel in k0['stages'].values():
        if os.path.dirname(rel) == k0['folder']:
            with open(os.path.join(b, rel), 'wb') as f:
                f.write(b'\0')
    k0['stages'] = {s: r for s, r in k0['stages'].items() if os.path.dirname(r) == k0['folder']}
    with open(os.path.join(b, 'manifest.json'), 'w') as f:
        json.dump(m, f, indent=2)
    j, err = bind_json(b, 0)
    assert j['kernel']['hash'] == KERNELS[1]['hash'], (j['kernel'], err)
    assert 'no stage file could be read; skipped' in err, err


rc = finish()
shutil.rmtree(TMP, ignore_errors=True)
sys.exit(rc)
