#!/usr/bin/env bash
# raw_capture.sh OUTDIR PROGRAM.py [ARGS...]
#
# Runs a Triton program under Triton's own dump and diagnostic knobs, without tkview,
# and keeps everything in OUTDIR in the layout of ../shared/dumps (a "raw capture
# folder" that tkview reads): src/, mlir_passes.txt, stderr.txt, stdout.txt,
# kernel_dump/HASH/, cache/HASH/, run.txt.  Beside every cubin it adds what nvdisasm
# makes of it: NAME.sass_gi (-c -gi) and NAME.sass_lr (--print-life-ranges
# --life-range-mode count -c); lr_tools.txt says which nvdisasm gave each and what the
# others answered.  This is how the project makes test data on a GPU machine; a user
# runs `tkview capture` instead.
set -u
out=$1; shift
prog=$1
mkdir -p "$out/src" && out=$(cd "$out" && pwd)
cp "$prog" "$out/src/"
py=${PYTHON:-python3}
triton_bin=$("$py" -c 'import triton, os; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin"))' 2>/dev/null)

start=$(date +%s.%N)
env TRITON_ALWAYS_COMPILE=1 MLIR_ENABLE_DUMP=1 MLIR_DUMP_PATH="$out/mlir_passes.txt" \
    LLVM_IR_ENABLE_DUMP=1 TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR="$out/kernel_dump" \
    TRITON_CACHE_DIR="$out/cache" TORCHINDUCTOR_CACHE_DIR="$out/inductor" \
    TORCHINDUCTOR_COMPILE_THREADS=1 MLIR_ENABLE_DIAGNOSTICS=warnings,remarks \
    TRITON_DUMP_PTXAS_LOG=1 TRITON_PRINT_AUTOTUNING=1 \
    "$py" "$@" >"$out/stdout.txt" 2>"$out/stderr.txt"
rc=$?
end=$(date +%s.%N)
printf 'exit %s\nseconds %s\nknobs TRITON_ALWAYS_COMPILE=1 MLIR_ENABLE_DUMP=1 LLVM_IR_ENABLE_DUMP=1 TRITON_KERNEL_DUMP=1 MLIR_ENABLE_DIAGNOSTICS=warnings,remarks TRITON_DUMP_PTXAS_LOG=1 TRITON_PRINT_AUTOTUNING=1 TORCHINDUCTOR_COMPILE_THREADS=1\n' \
    "$rc" "$(python3 -c "print(round($end - $start, 2))")" >"$out/run.txt"

: >"$out/lr_tools.txt"
find "$out/kernel_dump" -name '*.cubin' 2>/dev/null | while read -r cubin; do
    base=${cubin%.cubin}
    for tool in "$triton_bin/nvdisasm" "$(command -v nvdisasm)"; do
        [ -x "$tool" ] || continue
        ver=$("$tool" --version | tail -1)
        if [ ! -s "$base.sass_gi" ]; then
            "$tool" -c -gi "$cubin" >"$base.sass_gi" 2>/dev/null || rm -f "$base.sass_gi"
        fi
        if "$tool" --print-life-ranges --life-range-mode count -c "$cubin" >"$base.sass_lr.tmp" 2>"$base.lr_err"; then
            if [ ! -s "$base.sass_lr" ]; then mv "$base.sass_lr.tmp" "$base.sass_lr"; fi
            echo "${cubin#$out/} ok $tool ($ver)" >>"$out/lr_tools.txt"
        else
            echo "${cubin#$out/} FAILED $tool ($ver): $(head -c 400 "$base.lr_err" | tr '\n' ' ')" >>"$out/lr_tools.txt"
        fi
        rm -f "$base.sass_lr.tmp" "$base.lr_err"
    done
done
exit 0
