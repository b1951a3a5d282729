"""Instruction counts of a command under callgrind (valgrind): a figure that
does not move with the machine's load, shared by the benchmarks."""
import os
import re
import subprocess


def instructions(cmd, tmp):
    """Instructions COMMAND ran (all threads), or None without valgrind;
    callgrind's output goes to TMP/cg.out."""
    out = os.path.join(tmp, 'cg.out')
    try:
        p = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out, *cmd],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except FileNotFoundError:
        return None
    m = re.search(r'Collected : (\d+)', p.stderr)
    return int(m.group(1)) if m else None
