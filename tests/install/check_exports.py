#!/usr/bin/env python3
"""Checks the installed library's interface: libtkdump.so exports exactly
the functions the public headers mark TK_API (no internal function leaks
out, no TK_API function is missing), and its SONAME is libtkdump.so.N with
N the first number of the project's version.  TAP output.

Usage: check_exports.py LIBTKDUMP_SO HEADER_DIR VERSION
"""
import os
import re
import subprocess
import sys

DECL = re.compile(r"\bTK_API\b[^;{}]*?\b(tk_\w+)\s*\(")


def tk_api_names(header_dir):
    names = {}
    for name in sorted(os.listdir(header_dir)):
        if not name.endswith(".h") or name == "tk_export.h":
            continue
        with open(os.path.join(header_dir, name), encoding="utf-8") as f:
            text = f.read()
        # Comments mention TK_API in prose; only declarations count.
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        for m in DECL.finditer(text):
            names[m.group(1)] = name
    return names


def dynamic_symbols(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRVWi":
            syms.add(parts[2].split("@")[0])
    return syms


def soname(lib):
    out = subprocess.run(["objdump", "-p", lib], check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r"^\s*SONAME\s+(\S+)", out, re.M)
    return m.group(1) if m else None


def main():
    lib, header_dir, version = sys.argv[1:4]
    print("1..3")
    api = tk_api_names(header_dir)
    syms = dynamic_symbols(lib)
    ok = len(api) > 0
    print(f"{'ok' if ok else 'not ok'} 1 - {len(api)} TK_API functions "
          f"in {header_dir}")
    leaked = sorted(syms - set(api))
    missing = sorted(set(api) - syms)
    for s in leaked:
        print(f"# exported but not TK_API in a public header: {s}")
    for s in missing:
        print(f"# TK_API in {api[s]} but not exported: {s}")
    ok2 = ok and not leaked and not missing
    print(f"{'ok' if ok2 else 'not ok'} 2 - {os.path.basename(lib)} exports "
          f"exactly the TK_API set ({len(syms)} symbols)")
    want = "libtkdump.so." + version.split(".")[0]
    got = soname(lib)
    print(f"{'ok' if got == want else 'not ok'} 3 - SONAME {got} "
          f"(want {want})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
