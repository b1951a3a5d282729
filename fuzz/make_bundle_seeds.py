#!/usr/bin/env python3
"""Makes fuzz/corpus/bundle/: one seed per sample bundle, in the input
format of fuzz_bundle.c.

A seed is the sample's manifest.json, cut to its first kernel and source,
with every path pointed at the names fuzz_bundle.c writes (k/k.ttir ...,
sources/0000-k.py), followed by those files' bodies, each cut to a few KB
(the pass dumps decompressed first), joined with "#TKFILE#".  Seeds stay
under 64 KiB, the -max_len of fuzz/run-short.sh.

Also the shapes of hostile bundles (issue 27), from vector_add's seed:
many tiny dumps, long runs of newlines, manifests that are links.

Usage: make_bundle_seeds.py SAMPLE_DUMPS_DIR OUT_DIR
"""
import gzip
import json
import os
import sys

SEP = b'#TKFILE#'
# The order of FILES[] in fuzz_bundle.c, and the budget of each part.
FILES = ['manifest.json', 'k/k.ttir', 'k/k.ttgir', 'k/k.llir', 'k/k.ptx',
         'k/k.sass_gi', 'k/k.json', 'k/k.cubin', 'k/k.source',
         'k/passes/mlir.txt', 'k/passes/llvm.txt', 'sources/0000-k.py',
         'dumps/pool.zst', 'k/k.ttgir.zst', 'k/k.json.zst']
BUDGET = 2500


def read(bundle, rel, limit=BUDGET):
    if not rel:
        return None
    p = os.path.join(bundle, rel)
    data = gzip.open(p).read() if rel.endswith('.gz') else open(p, 'rb').read()
    if len(data) <= limit:
        return data
    cut = data[:limit]
    nl = cut.rfind(b'\n')
    return cut[:nl + 1] if nl > 0 else cut


def seed(bundle):
    m = json.load(open(os.path.join(bundle, 'manifest.json')))
    k = m['kernels'][0]
    body = {}
    stage_names = {'ttir': 'k/k.ttir', 'ttgir': 'k/k.ttgir', 'llir': 'k/k.llir',
                   'ptx': 'k/k.ptx', 'sass': 'k/k.sass_gi'}
    for stage, rel in list(k.get('stages', {}).items()):
        if stage in stage_names and rel:
            body[stage_names[stage]] = read(bundle, rel)
            k['stages'][stage] = stage_names[stage]
    file_names = {'metadata': 'k/k.json', 'cubin': 'k/k.cubin', 'source_ttir': 'k/k.source'}
    for key, rel in list(k.get('files', {}).items()):
        if key in file_names and rel:
            # More of the cubin: its ELF headers and section table.
            body[file_names[key]] = read(bundle, rel, 8192 if key == "cubin" else BUDGET)
            k['files'][key] = file_names[key]
    passes = []
    for p in k.get('passes', []):
        name = 'k/passes/%s.txt' % p['kind']
        if p['kind'] in ('mlir', 'llvm') and name not in body:
            body[name] = read(bundle, p['file'])
            passes.append({'kind': p['kind'], 'file': name})
    k['passes'] = passes
    k['folder'] = 'k'
    m['kernels'] = [k]
    srcs = m.get('sources', [])[:1]
    for s in srcs:
        body['sources/0000-k.py'] = read(bundle, s['file'])
        s['file'] = 'sources/0000-k.py'
    m['sources'] = srcs
    m.pop('capture', None)  # run details: large, and nothing reads them
    body['manifest.json'] = json.dumps(m, indent=1).encode()
    # Parts up to the last one present; a missing one in between is empty.
    last = max(i for i, f in enumerate(FILES) if f in body)
    parts = [body.get(f) or b'' for f in FILES[:last + 1]]
    out = SEP.join(parts)
    assert len(out) < 65536, (bundle, len(out))
    return out


LINK = b'#TKLINK#'  # fuzz_bundle.c: the part's file is a link to the rest


def hostile_seeds(vector_add):
    """The shapes of issue 27, each from the vector_add seed: many tiny
    dumps, long runs of newlines, manifests that are links."""
    parts = vector_add.split(SEP)
    def with_part(name, data):
        p = list(parts) + [b''] * (len(FILES) - len(parts))
        p[FILES.index(name)] = data
        return SEP.join(p)
    tiny = b''.join(b'// -----// IR Dump Before P%d (p) (builtin.module) //----- //\nmodule {\n}\n' % i
                    for i in range(400))
    out = {
        'hostile_tiny_dumps': with_part('k/passes/mlir.txt', tiny),
        'hostile_newlines_dump': with_part('k/passes/mlir.txt', parts[FILES.index('k/passes/mlir.txt')][:200] + b'\n' * 30000),
        'hostile_newlines_stage': with_part('k/k.ttir', b'\n' * 30000),
        'hostile_manifest_passwd': with_part('manifest.json', LINK + b'/etc/passwd'),
        'hostile_manifest_dev_zero': with_part('manifest.json', LINK + b'/dev/zero'),
        'hostile_manifest_inside': with_part('manifest.json', LINK + b'k/k.json'),
        'hostile_stage_link_out': with_part('k/k.ttgir', LINK + b'/etc/hostname'),
    }
    for name, data in out.items():
        assert len(data) < 65536, (name, len(data))
    return out


def main():
    samples, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    va = os.path.join(samples, 'vector_add')
    if os.path.isfile(os.path.join(va, 'manifest.json')):
        for name, data in hostile_seeds(seed(va)).items():
            with open(os.path.join(out, name + '.bundle'), 'wb') as f:
                f.write(data)
            print(name)
    for name in sorted(os.listdir(samples)):
        b = os.path.join(samples, name)
        if os.path.isfile(os.path.join(b, 'manifest.json')):
            with open(os.path.join(out, name + '.bundle'), 'wb') as f:
                f.write(seed(b))
            print(name)


if __name__ == '__main__':
    main()
