#!/bin/bash
# diff_vs_git.sh - normalize+diff every consecutive pass dump pair with
# bench_diff, and run `git diff --no-index --histogram` over the same pairs.
#
# Usage: bench/diff_vs_git.sh BUILD_DIR FILE...
#   BUILD_DIR  a meson build folder (release or debugoptimized, no sanitizers)
#   FILE       a pass dump file (mlir_passes.txt, stderr.txt of a capture)
#
# bench_diff splits FILE into dumps and writes each one to a temporary folder
# byte for byte; git then diffs dump I against dump I+1, one process per pair
# as a user would run it, output to /dev/null.  Printed per FILE: our time
# (best of 3 in one process: read, split, normalize, diff), our time as one
# process run (wall clock, start-up included), git's total, git's total on
# identical pairs (its start-up cost, the floor of one process per pair), and
# the ratios.  git compares raw text (every renumbered line is a change to
# it); bench_diff compares normalized lines, which is the work tkview does.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR FILE..." >&2
    exit 2
fi
build=$1
shift
bench=$build/bench/bench_diff
[ -x "$bench" ] || { echo "$bench: not built" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }

printf '%-40s %6s %9s %9s %9s %9s %8s %8s\n' file pairs "ours s" "ours(1p)" "git s" "git 0 s" "git/ours" "git/1p"
for f in "$@"; do
    rm -rf "$tmp/d"
    out=$("$bench" --repeat 3 --write-dumps "$tmp/d" "$f" | tail -1)
    ours=$(echo "$out" | awk '{print $8}')
    t0=$(now)
    "$bench" --repeat 1 "$f" >/dev/null
    t1=$(now)
    ours1=$(secs "$t0" "$t1")
    mapfile -t dumps < <(ls "$tmp/d" | sort)
    n=${#dumps[@]}
    t0=$(now)
    for ((i = 0; i + 1 < n; i++)); do
        git diff --no-index --histogram "$tmp/d/${dumps[i]}" "$tmp/d/${dumps[i+1]}" >/dev/null || true
    done
    t1=$(now)
    for ((i = 0; i + 1 < n; i++)); do
        git diff --no-index --histogram "$tmp/d/${dumps[i]}" "$tmp/d/${dumps[i]}" >/dev/null || true
    done
    t2=$(now)
    git_s=$(secs "$t0" "$t1")
    git0_s=$(secs "$t1" "$t2")
    name=$(basename "$(dirname "$f")")/$(basename "$f")
    printf '%-40s %6d %9.3f %9.3f %9.3f %9.3f %7.1fx %7.1fx\n' "$name" $((n - 1)) \
        "$ours" "$ours1" "$git_s" "$git0_s" \
        "$(echo "$git_s / $ours" | bc -l)" "$(echo "$git_s / $ours1" | bc -l)"
done
