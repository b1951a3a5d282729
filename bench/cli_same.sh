#!/bin/bash
# cli_same.sh BASE BUILD CAPTURE... - do two builds print the same?
#
# Runs `info`, `info --json`, `bind` (ttgir, sass, ptx --json) of kernel 0,
# `hot` of kernel 0 and `passes --changed-only` of kernel 0 with BASE's and
# BUILD's cli/tkview on each CAPTURE and compares standard output, standard
# error and exit status byte for byte, paths included (each capture is read
# where it lies by both).  Prints one line per difference and a summary;
# exits 1 if anything differs.  For a change that must not move the output
# (issue 25's speed work): bench/README.md says where it was run.
set -u
[ $# -ge 3 ] || { echo "usage: $0 BASE BUILD CAPTURE..." >&2; exit 2; }
base=$1; build=$2; shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tkview-cli-same-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Both builds look for the life-range cache and nvdisasm the same way.
export XDG_CACHE_HOME="$tmp/cache" TKVIEW_NVDISASM=none
runs=0; diffs=0
one() {  # one NAME ARGS...: run ARGS with both builds and compare
    local name=$1; shift
    for b in base build; do
        local t; [ $b = base ] && t=$base || t=$build
        "$t/cli/tkview" "$@" > "$tmp/$b.out" 2> "$tmp/$b.err"
        echo "exit $?" >> "$tmp/$b.err"
    done
    runs=$((runs + 1))
    for s in out err; do
        if ! cmp -s "$tmp/base.$s" "$tmp/build.$s"; then
            diffs=$((diffs + 1))
            echo "DIFFERS ($s): $name: tkview $*"
            diff "$tmp/base.$s" "$tmp/build.$s" | head -5
        fi
    done
}
for c in "$@"; do
    one info info "$c"
    one info-json info --json "$c"
    one bind-ttgir bind "$c" --kernel 0 --ir ttgir:20
    one bind-sass bind "$c" --kernel 0 --ir sass:40
    one bind-ptx bind "$c" --kernel 0 --ir ptx:60 --json
    one hot hot "$c" --kernel 0
    one passes passes "$c" --kernel 0 --changed-only
done
echo "$runs runs, $diffs differences"
[ $diffs -eq 0 ]
