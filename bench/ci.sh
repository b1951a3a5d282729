#!/usr/bin/env bash
# The speed figures CI shows (issue 25: timings are benchmarks that CI runs
# and prints, never assertions in the test suite).  Run at the end of the
# README's test command, after `meson test -C build-ci`, whose build holds
# the unpacked captures.
#
# The test build is instrumented (AddressSanitizer), so its times say little:
# this builds tkview alone without sanitizers (build-bench, release) and
# prints, for each capture, `tkview info`, `tkview bind` and `tkview --html`
# beside their targets and `wc -l` over the same inputs in the same turns
# (bench/targets.py).  It fails only when a command could not run; a figure
# over its target is printed, not failed: CI's machine is shared and busy.
#
# Usage: bench/ci.sh [TEST-BUILD]   (default build-ci)
set -euo pipefail
cd "$(dirname "$0")/.."
test_build=${1:-build-ci}
bench_build=${TKVIEW_BENCH_BUILD:-build-bench}
dumps=$test_build/tests/dumps
if [ ! -d "$dumps" ]; then
    echo "bench/ci.sh: $dumps: no unpacked captures (run meson test -C $test_build first)" >&2
    exit 2
fi
[ -f "$bench_build/build.ninja" ] ||
    meson setup "$bench_build" --buildtype=release -Dviewer=disabled -Dman=disabled >/dev/null
ninja -C "$bench_build" cli/tkview html/libtkview-html.so >/dev/null
captures=(sample_dumps/attention_fwd)
for c in persistent_tma_matmul compiled_block autotuned_matmul; do
    [ -d "$dumps/$c" ] && captures+=("$dumps/$c")
done
echo "bench/ci.sh: speed figures of a release build on this machine ($(nproc) cores," \
     "load $(cut -d' ' -f1-3 /proc/loadavg)); printed, not asserted"
python3 bench/targets.py --runs 3 --only info,kernel,html "$bench_build" "${captures[@]}"
