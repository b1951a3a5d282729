#!/usr/bin/env python3
"""Checks that no C file of the library and the C front ends is over 600
lines and no function in them over 150 lines (issue 23: files and
functions small enough to read; split along real seams).

Usage: check_sizes.py [ROOT]   TAP output; ROOT the repository (default:
                               two folders up from this file)

A function is counted from the line its body's `{` opens at column 0
(the style of this tree) to its closing `}` at column 0.
"""
import os
import re
import sys

MAX_FILE = 600
MAX_FUNC = 150
TREES = ["dumpers", "cli", "html", "compiler"]


def c_files(root):
    for tree in TREES:
        for d, _, names in os.walk(os.path.join(root, tree)):
            for n in sorted(names):
                if n.endswith((".c", ".h")):
                    yield os.path.join(d, n)


def long_functions(lines):
    """(first line, length, name) of each function over MAX_FUNC lines."""
    out = []
    start = None
    for i, line in enumerate(lines):
        if line.startswith("{"):
            start = i
        elif line.startswith("}") and start is not None:
            n = i - start + 1
            if n > MAX_FUNC:
                head = " ".join(lines[max(0, start - 3):start])
                m = re.findall(r"(\w+)\s*\(", head)
                out.append((start, n, m[0] if m else "?"))
            start = None
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    problems = []
    n = 0
    for path in sorted(c_files(root)):
        n += 1
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        shown = os.path.relpath(path, root)
        if len(lines) - 1 > MAX_FILE:
            problems.append(f"{shown}: {len(lines) - 1} lines (most "
                            f"{MAX_FILE})")
        for start, length, name in long_functions(lines):
            problems.append(f"{shown}:{start + 1}: {name}() is {length} "
                            f"lines (most {MAX_FUNC})")
    print("1..1")
    for p in problems:
        print("# " + p)
    print(("ok" if not problems else "not ok") +
          f" 1 - {n} C files: none over {MAX_FILE} lines, no function over "
          f"{MAX_FUNC}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
