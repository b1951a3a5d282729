#!/bin/sh
# run-short.sh [SECONDS] - builds the libFuzzer targets and runs each one for
# SECONDS (default 30), starting from the seed corpora in fuzz/corpus/KIND.
# Exits non-zero when a target found a crash, a leak, a hang or a broken
# promise (see fuzz/README.md); the inputs that did it are kept under
# $FUZZ_OUT_DIR/KIND/crashes/ with the log beside them.
#
# Environment: FUZZ_BUILD_DIR (default build-fuzz in the source tree),
# FUZZ_OUT_DIR (default BUILD/fuzz-out), FUZZ_CC (default clang), FUZZ_JOBS
# (ninja -j), FUZZ_KINDS (default "mlir llvm ptx sass amdgcn ncu bundle").
set -eu

secs=${1:-30}
src=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$src/build-fuzz}
out=${FUZZ_OUT_DIR:-$build/fuzz-out}
kinds=${FUZZ_KINDS:-mlir llvm ptx sass amdgcn ncu bundle}

# The libFuzzer and sanitizer runtimes are not part of Debian's clang package
# (libclang-rt-NN-dev, only recommended): say so rather than fail to link.
rt=$(${FUZZ_CC:-clang} -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$(uname -m).a
if [ ! -f "$rt" ]; then
  echo "run-short: no $rt: the libFuzzer runtime is in libclang-rt-<version>-dev (debian-packages.txt)" >&2
  exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
  CC=${FUZZ_CC:-clang} meson setup "$build" "$src" -Dfuzz=true \
    -Db_sanitize=address,undefined -Db_lundef=false
fi
targets=
for kind in $kinds; do targets="$targets fuzz/fuzz_$kind"; done
# shellcheck disable=SC2086
ninja -C "$build" ${FUZZ_JOBS:+-j "$FUZZ_JOBS"} $targets

# fuzz_bundle writes each input as a bundle folder under TMPDIR: a folder
# of this run's own, never a fixed name in /tmp.  On a tmpfs when there is
# one (3.6x the executions of a disk folder), removed at the end; else in
# the build folder.
if [ -d /dev/shm ] && [ -w /dev/shm ] && shm=$(mktemp -d /dev/shm/tkview-fuzz.XXXXXX); then
  trap 'rm -rf "$shm"' EXIT
  export TMPDIR="$shm"
else
  export TMPDIR="$out/tmp"
  mkdir -p "$TMPDIR"
fi
# UBSan reports must stop the run, or libFuzzer never sees them.
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

status=0
for kind in $kinds; do
  dir=$out/$kind
  mkdir -p "$dir/corpus" "$dir/crashes"
  # New inputs go to the scratch corpus (first folder), never to the seeds.
  if "$build/fuzz/fuzz_$kind" -max_total_time="$secs" -timeout=10 \
       -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
       -dict="$src/fuzz/dict/$kind.dict" -artifact_prefix="$dir/crashes/" \
       "$dir/corpus" "$src/fuzz/corpus/$kind" >"$dir/log.txt" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt")
    echo "fuzz_$kind: ok, ${runs:-?} inputs in ${secs} s"
  else
    status=1
    echo "fuzz_$kind: FAILED (log: $dir/log.txt, inputs: $dir/crashes/)"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$dir/log.txt" | head -20
  fi
done
exit $status
