#!/usr/bin/env python3
"""Writes the first C example of docs/api.md to a .c file, so the build
compiles it against the public headers and the `api-example` test runs it:
the page an embedder starts from cannot drift from the API.

Usage: doc_example.py API_MD OUT_C
"""
import re
import sys


def main():
    src, out = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f:
        blocks = re.findall(r"```c\n(.*?)```", f.read(), re.S)
    if not blocks:
        sys.exit(f"{src}: no ```c block")
    with open(out, "w", encoding="utf-8") as f:
        f.write(f"/* Generated from {src} by {sys.argv[0]}. */\n")
        f.write(blocks[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
