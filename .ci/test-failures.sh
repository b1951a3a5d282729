#!/bin/sh
# Prints what a failed CI run needs at the end of its output: the tests meson
# reported as not passing (from the console log) and, for each, the last lines
# of its section of meson's testlog.txt; when no test failed (apt, meson setup
# or the build stopped first, or a fuzzer failed), the last lines of the
# console log instead.  meson's --print-errorlogs prints the same logs, but in
# the middle of a long run; CI's reader looks at the end.
# Usage: test-failures.sh CONSOLE-LOG [TESTLOG] [LINES-PER-TEST]
log=$1 testlog=${2:-} n=${3:-60}
# meson prints each one twice: as it ends, and again in "Summary of Failures".
failed=$(grep -E '^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT|ERROR|INTERRUPT|UNEXPECTEDPASS) ' "$log" 2>/dev/null | awk '!seen[$0]++')
if [ -z "$failed" ]; then
    echo "--- last 40 lines of the command's output ($log) ---"
    tail -n 40 "$log"
    exit 0
fi
echo "--- tests that did not pass ---"
echo "$failed"
[ -f "$testlog" ] || exit 0
# "tkview:viewer / test_viewer_bind": the name as testlog.txt's "test:" line has it.
echo "$failed" | sed -E 's/^ *[0-9]+\/[0-9]+ +//; s/ +(FAIL|TIMEOUT|ERROR|INTERRUPT|UNEXPECTEDPASS) .*$//' |
while IFS= read -r name; do
    echo "--- $name: last $n lines of its testlog.txt section ---"
    awk -v want="$name" '
        /^=+( [0-9]+\/[0-9]+ =+)?$/ { if (keep) exit; inside = 1; next }
        inside && /^test: / { t = $0; sub(/^test: +/, "", t); sub(/^[^:]*:/, "", t)
                               w = want; sub(/^[^:]*:/, "", w); keep = (t == w) }
        keep { print }
    ' "$testlog" | tail -n "$n"
done
