#!/usr/bin/env python3
"""Runs a fixed set of tkview commands on every sample and shared dump and
keeps what each printed, so two builds can be compared with `diff -r`.

Usage: outputs_snapshot.py TKVIEW OUTDIR [DUMP ...]

    outputs_snapshot.py /tmp/build-base/cli/tkview /tmp/snap-base
    outputs_snapshot.py build/cli/tkview /tmp/snap-new
    diff -r /tmp/snap-base /tmp/snap-new

Without DUMP arguments it takes every folder of sample_dumps/ and every
unpacked shared dump it finds (build/tests/dumps/*, or what TKVIEW_DUMPS
names).  For each dump OUTDIR/<its folder>/<dump>/ gets one file per command holding its
exit status, standard output and standard error, and html/ the report.

The commands a dump gets depend only on the dump: its kernels and sources
come from `info --json`, the source lines to bind are read from the source
file itself (lines calling `tl.`), and the passes to diff are the first
changed ones `passes --json` lists.  Both builds are run from OUTDIR with the
dumps named by absolute path, so any path a command prints is the same.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def run(tkview, outdir, name, args):
    """Runs tkview ARGS in OUTDIR, writes OUTDIR/NAME; returns stdout."""
    p = subprocess.run([tkview] + args, cwd=outdir, capture_output=True,
                       timeout=600)
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(b"$ tkview " + " ".join(args).encode() + b"\n")
        f.write(b"rc=%d\n--- stdout\n" % p.returncode)
        f.write(p.stdout)
        f.write(b"--- stderr\n")
        f.write(p.stderr)
    return p.stdout if p.returncode == 0 else b""


def source_lines(path, most=3):
    """Line numbers of the first lines of PATH that call tl.*"""
    found = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                if re.search(r"\btl\.\w+\(", line):
                    found.append(n)
                    if len(found) == most:
                        break
    except OSError:
        pass
    return found


def snapshot_dump(tkview, top, dump):
    # sample_dumps/vector_add and dumps/vector_add both exist: keep the
    # folder the dump is in.
    dump = dump.rstrip("/")
    name = os.path.join(os.path.basename(os.path.dirname(dump)),
                        os.path.basename(dump))
    out = os.path.join(top, name)
    os.makedirs(out, exist_ok=True)
    info = run(tkview, out, "info.txt", ["info", dump])
    info = run(tkview, out, "info.json", ["info", dump, "--json"])
    try:
        data = json.loads(info)
    except ValueError:
        return
    kernels = [k["hash"][:12] for k in data.get("kernels", [])]
    sources = [(s["path"], s["resolved"]) for s in data.get("sources", [])
               if isinstance(s, dict) and s.get("resolved")]
    run(tkview, out, "passes.json", ["passes", dump, "--json"])
    for i, k in enumerate(kernels[:2]):
        kk = ["--kernel", k]
        run(tkview, out, f"k{i}-refs.txt", ["refs", dump] + kk)
        run(tkview, out, f"k{i}-hot.json", ["hot", dump] + kk + ["--json"])
        run(tkview, out, f"k{i}-hot.txt", ["hot", dump] + kk)
        run(tkview, out, f"k{i}-passes.txt",
            ["passes", dump] + kk + ["--changed-only"])
        passes = run(tkview, out, f"k{i}-passes.json",
                     ["passes", dump] + kk + ["--json"])
        try:
            plist = json.loads(passes)["kernels"][0]["passes"]
        except (ValueError, KeyError, IndexError):
            plist = []
        changed = [p["index"] for p in plist
                   if p.get("effect") == "changed"][:2]
        if not changed and plist:
            changed = [plist[min(5, len(plist) - 1)]["index"]]
        for n in changed:
            run(tkview, out, f"k{i}-diff-{n}.txt",
                ["diff", dump] + kk + ["--pass", str(n)])
        if changed and len(plist) > changed[0] + 3:
            n = changed[0]
            run(tkview, out, f"k{i}-diff-{n}-to.txt",
                ["diff", dump] + kk + ["--pass", str(n), "--to",
                                       str(n + 3), "--context", "1"])
        for path, resolved in sources[:1]:
            base = os.path.basename(path)
            for line in source_lines(resolved):
                spec = f"{base}:{line}"
                run(tkview, out, f"k{i}-bind-{line}.txt",
                    ["bind", dump] + kk + ["--source", spec])
                run(tkview, out, f"k{i}-bind-{line}.json",
                    ["bind", dump] + kk + ["--source", spec, "--json"])
            for line in source_lines(resolved, 1):
                run(tkview, out, f"k{i}-history-{line}.json",
                    ["history", dump] + kk + ["--source", f"{base}:{line}",
                                              "--json"])
        run(tkview, out, f"k{i}-bind-ir.txt",
            ["bind", dump] + kk + ["--ir", "ttgir:5"])
    if len(kernels) >= 2:
        run(tkview, out, "compare.txt",
            ["compare", dump, "--kernel", kernels[0], "--kernel-b",
             kernels[1]])
        run(tkview, out, "compare.json",
            ["compare", dump, "--kernel", kernels[0], "--kernel-b",
             kernels[1], "--json"])
    elif kernels:
        run(tkview, out, "compare-self.txt",
            ["compare", dump, dump, "--kernel", kernels[0]])
    run(tkview, out, "html.txt", ["--html", "html", dump])


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    tkview = os.path.abspath(sys.argv[1])
    top = os.path.abspath(sys.argv[2])
    dumps = [os.path.abspath(d) for d in sys.argv[3:]]
    if not dumps:
        samples = os.path.join(ROOT, "sample_dumps")
        dumps = sorted(os.path.join(samples, d) for d in os.listdir(samples)
                       if os.path.isdir(os.path.join(samples, d)))
        shared = os.environ.get("TKVIEW_DUMPS",
                                os.path.join(ROOT, "build", "tests", "dumps"))
        if os.path.isdir(shared):
            dumps += sorted(os.path.join(shared, d) for d in os.listdir(shared)
                            if os.path.isdir(os.path.join(shared, d)))
    os.makedirs(top, exist_ok=True)
    # Every command's --help, its usage error, and a kernel that is not there.
    helps = os.path.join(top, "_help")
    os.makedirs(helps, exist_ok=True)
    run(tkview, helps, "tkview.txt", ["--help"])
    for cmd in ("info", "bind", "refs", "bundle", "passes", "diff", "history",
                "compare", "hot", "capture", "view"):
        run(tkview, helps, f"{cmd}.txt", [cmd, "--help"])
        run(tkview, helps, f"{cmd}-usage.txt", [cmd])
    run(tkview, helps, "profile.txt", ["profile", "import", "--help"])
    one = os.path.join(ROOT, "sample_dumps", "matmul_configs")
    for cmd in ("refs", "hot", "passes", "bind", "history", "diff", "compare"):
        extra = {"bind": ["--source", "x.py:1"], "history": ["--source", "x.py:1"],
                 "diff": ["--pass", "1"], "compare": ["--kernel-b", "1"]}
        run(tkview, helps, f"{cmd}-nokernel.txt",
            [cmd, one, "--kernel", "nosuch"] + extra.get(cmd, []))
        run(tkview, helps, f"{cmd}-ambiguous.txt",
            [cmd, one, "--kernel", "matmul"] + extra.get(cmd, []))
    for d in dumps:
        snapshot_dump(tkview, top, d)
        print(f"{os.path.basename(d)}: done", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
