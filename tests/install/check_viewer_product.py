#!/usr/bin/env python3
"""Checks that the installed viewer holds no test or benchmark code: the
test actions (viewer/testing/tkv_test_hooks.c), the state they write
(tkv_test_state.c), the screenshots (tkv_snapshot.c) and --bench
(tkv_bench.c) are only in tkview-viewer-test, which is never installed.
Looks at the program's symbols (nm, when it has them) and at its bytes (the
action names and option strings, which a stripped program still holds).
A planted copy that has them must fail: the test build itself is checked
the other way round.  TAP output.

Usage: check_viewer_product.py TKVIEW-VIEWER TKVIEW-VIEWER-TEST
"""
import re
import subprocess
import sys

SYMBOLS = re.compile(r"\btkv_(test_hooks|test_state|bench|snapshot)_\w+")
STRINGS = [b"test-activate", b"test-state", b"test-screenshot", b"TKVIEW_TEST_HOOKS",
           b"--bench"]


def found(path):
    """What of the test build PATH holds."""
    out = subprocess.run(["nm", "-a", path], capture_output=True, text=True).stdout
    hits = sorted(set(m.group(0) for m in SYMBOLS.finditer(out)))
    with open(path, "rb") as f:
        data = f.read()
    hits += [s.decode() for s in STRINGS if s in data]
    return hits


def main():
    product, test_build = sys.argv[1], sys.argv[2]
    print("1..2")
    bad = found(product)
    for h in bad:
        print("# %s holds %s" % (product, h))
    print(("not ok" if bad else "ok") + " 1 - the installed viewer has no test or bench code")
    # The check can fail: the test build has all of them.
    seen = found(test_build)
    missing = [s.decode() for s in STRINGS if s.decode() not in seen]
    for m in missing:
        print("# %s lacks %s" % (test_build, m))
    print(("not ok" if missing else "ok") + " 2 - the test build has them (the check sees them)")
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
