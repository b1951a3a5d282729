#!/usr/bin/env python3
"""html_same.py A B - are two `tkview --html` reports the same once inflated?

Compares the two folders file by file.  A data file, `TK.putz("KEY","BASE64");`
(put_queue.c), is compared by its key and its JSON: the base64 is decoded and
the gzip inflated, so a change of compressor (or level) that keeps the data
shows as no difference.  Every other file is compared byte for byte.  Prints
one line per difference, then the file count and each report's size in bytes
(what is on disk, compressed) and its data inflated; exits 1 if anything
differs.  For a change that must not move the report (issue 25's speed work).
"""
import base64
import gzip
import os
import re
import sys

PUTZ = re.compile(rb'^TK\.putz\("((?:[^"\\]|\\.)*)","([A-Za-z0-9+/=]*)"\);\n$')


def files(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, root)] = p
    return out


def content(path):
    """(bytes compared, bytes on disk, bytes inflated)"""
    raw = open(path, 'rb').read()
    m = PUTZ.match(raw)
    if not m:
        return raw, len(raw), len(raw)
    data = gzip.decompress(base64.b64decode(m.group(2)))
    return b'putz ' + m.group(1) + b'\n' + data, len(raw), len(data)


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: html_same.py A B')
    a, b = sys.argv[1:]
    fa, fb = files(a), files(b)
    diffs = 0
    size = {a: [0, 0], b: [0, 0]}
    for rel in sorted(set(fa) | set(fb)):
        if rel not in fa or rel not in fb:
            print(f'ONLY IN {a if rel in fa else b}: {rel}')
            diffs += 1
            continue
        ca, da, ia = content(fa[rel])
        cb, db, ib = content(fb[rel])
        size[a][0] += da; size[a][1] += ia
        size[b][0] += db; size[b][1] += ib
        if ca != cb:
            print(f'DIFFERS: {rel}')
            diffs += 1
    n = len(set(fa) | set(fb))
    for r in (a, b):
        print(f'{r}: {size[r][0]} bytes on disk, {size[r][1]} inflated')
    print(f'{n} files, {diffs} differ')
    sys.exit(1 if diffs else 0)


if __name__ == '__main__':
    main()
