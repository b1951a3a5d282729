#!/usr/bin/env python3
"""Checks that no C file of the library and the C front ends (the CLI, the
report, capture, the viewer) is over 600 lines and no function in them over
150 lines (issue 23: files and functions small enough to read; split along
real seams).

Usage: check_sizes.py [--self-test] [ROOT]
       TAP output; ROOT the repository (default: two folders up from this
       file).  --self-test: also check that a file and a function planted
       over the limits in a scratch tree are caught.

A function is counted from the line its body's `{` opens at column 0
(the style of this tree) to its closing `}` at column 0.
"""
import os
import re
import shutil
import sys
import tempfile

MAX_FILE = 600
MAX_FUNC = 150
TREES = ["dumpers", "cli", "html", "compiler", "viewer"]


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


def check(root):
    """(problems, number of files read) under ROOT."""
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
    return problems, n


def self_test():
    """Plants a file of MAX_FILE + 1 lines and a function of MAX_FUNC + 1
    lines (and their neighbours at the limits) in a scratch tree: only the
    two over must be reported."""
    tmp = tempfile.mkdtemp(prefix="check_sizes.")
    try:
        d = os.path.join(tmp, "viewer", "widgets")
        os.makedirs(d)
        def write(name, lines):
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write("".join(x + "\n" for x in lines))
        write("long_file.c", ["/* x */"] * (MAX_FILE + 1))
        write("at_limit.c", ["/* x */"] * MAX_FILE)
        def func(name, n):  # a function of N lines, braces included
            return [f"static int {name}(void)", "{"] + \
                ["    (void)0;"] * (n - 3) + ["    return 0;", "}"]
        write("long_func.c", func("too_long", MAX_FUNC + 1) +
              func("just_fits", MAX_FUNC))
        problems, _ = check(tmp)
        return problems == [
            f"viewer/widgets/long_file.c: {MAX_FILE + 1} lines (most "
            f"{MAX_FILE})",
            f"viewer/widgets/long_func.c:2: too_long() is {MAX_FUNC + 1} "
            f"lines (most {MAX_FUNC})"]
    finally:
        shutil.rmtree(tmp)


def main():
    args = sys.argv[1:]
    selftest = "--self-test" in args
    args = [a for a in args if a != "--self-test"]
    root = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    problems, n = check(root)
    print("1..2" if selftest else "1..1")
    for p in problems:
        print("# " + p)
    print(("ok" if not problems else "not ok") +
          f" 1 - {n} C files: none over {MAX_FILE} lines, no function over "
          f"{MAX_FUNC}")
    caught = True
    if selftest:
        caught = self_test()
        print(("ok" if caught else "not ok") +
              " 2 - a file and a function planted over the limits are caught")
    return 0 if not problems and caught else 1


if __name__ == "__main__":
    sys.exit(main())
