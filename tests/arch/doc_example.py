#!/usr/bin/env python3
"""Checks that the first C example of docs/api.md is, word for word, the
program examples/sass_per_line.c, which the build compiles against the
public headers and the `api-example` test runs: the page an embedder starts
from and the example shipped in libtkdump-dev are one program, and neither
can drift from the API.  TAP output.

Usage: doc_example.py API_MD EXAMPLE_C
"""
import difflib
import re
import sys


def main():
    doc, example = sys.argv[1], sys.argv[2]
    with open(doc, encoding="utf-8") as f:
        blocks = re.findall(r"```c\n(.*?)```", f.read(), re.S)
    with open(example, encoding="utf-8") as f:
        program = f.read()
    print("1..1")
    if blocks and blocks[0] == program:
        print(f"ok 1 - the first ```c block of {doc} is {example}")
        return 0
    print(f"not ok 1 - the first ```c block of {doc} is not {example}")
    for line in difflib.unified_diff(
            program.splitlines(), blocks[0].splitlines() if blocks else [],
            example, doc, lineterm=""):
        print("# " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
