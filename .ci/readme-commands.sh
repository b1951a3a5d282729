#!/bin/sh
# Prints the README's set-up commands, one a line: every line inside a
# fenced block of README.md's "## Set up" section (the set-up command, then
# the test command).  CI and .ci/fresh-debian.sh run what this prints, so the
# commands they run are the README's, never a copy that can drift.
# Usage: readme-commands.sh [README.md]
readme=${1:-$(dirname "$0")/../README.md}
awk '
    /^## / { in_setup = ($0 ~ /^## Set up/); next }
    in_setup && /^```/ { fence = !fence; next }
    in_setup && fence { print }
' "$readme"
