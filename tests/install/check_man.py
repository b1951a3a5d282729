#!/usr/bin/env python3
"""Checks that tkview(1) has not fallen behind the program: every command
`tkview --help` lists, every long option each command's --help lists, and
every exit status `tkview --help` names appears in the man page's scdoc
source, bold (*--kernel*).  TAP output.

Usage: check_man.py TKVIEW TKVIEW_1_SCD
"""
import re
import subprocess
import sys


def run_help(tkview, *args):
    r = subprocess.run([tkview, *args, "--help"], capture_output=True,
                       text=True)
    return r.stdout + r.stderr


def commands(usage):
    """The first words of each entry under 'Commands:' (two spaces in)."""
    m = re.search(r"^Commands:\n(.*?)\n\n", usage, re.S | re.M)
    if not m:
        return []
    cmds = []
    for line in m.group(1).splitlines():
        w = re.match(r"  (--html|profile import|[a-z]+)\b", line)
        if w and w.group(1) not in cmds:
            cmds.append(w.group(1))
    return cmds


def main():
    tkview, scd = sys.argv[1:3]
    with open(scd, encoding="utf-8") as f:
        page = f.read()
    usage = run_help(tkview)
    cmds = commands(usage)
    tests = []
    tests.append((len(cmds) >= 10, f"{len(cmds)} commands in tkview --help"))
    for c in cmds:
        tests.append((f"*{c}*" in page, f"command {c} in {scd}"))
        # capture's options are listed with the other commands' own.
        opts = sorted(set(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)",
                                     run_help(tkview, *c.split()), re.M)))
        missing = [o for o in opts
                   if o not in ("--help", "--help-all")
                   and f"*{o}*" not in page]
        tests.append((bool(opts) and not missing,
                      f"{c}: {len(opts)} options, missing {missing}"))
    m = re.search(r"Exit status:(.*?)(?:\n\n|$)", usage, re.S)
    codes = re.findall(r"(?<![\w.])(\d)(?= )", m.group(1)) if m else []
    exit_sec = page.split("# EXIT STATUS", 1)[-1].split("\n# ", 1)[0]
    tests.append((len(codes) >= 4, f"exit statuses in tkview --help: {codes}"))
    for code in codes:
        tests.append((f"*{code}*" in exit_sec, f"exit status {code} in EXIT STATUS"))
    print(f"1..{len(tests)}")
    for i, (ok, what) in enumerate(tests, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
