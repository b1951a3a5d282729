#!/bin/bash
# The bash completion (cli/completion/tkview) on a real tkview: commands,
# --stage values and the kernel names of the bundle on the line.  TAP.
# Usage: completion.sh COMPLETION_FILE TKVIEW SAMPLES_DIR
set -u
comp=$1 tkview=$2 samples=$3
# shellcheck source=/dev/null
source "$comp"
# Bare words complete as files too: in an empty folder there are none.
dir=$(mktemp -d "$TMPDIR/completion.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
# bash's default: ':' and '=' break words, so bash replaces only what
# follows them.
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'

n=0 failed=0
complete_line() {
    COMP_LINE=$1
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _tkview
    got=" ${COMPREPLY[*]} "
}
expect() {   # expect LINE WORD... : each WORD is offered, and nothing else
    local line=$1; shift
    complete_line "$line"
    n=$((n + 1))
    local w ok=1
    for w in "$@"; do [[ $got == *" $w "* ]] || ok=0; done
    [[ ${#COMPREPLY[@]} == $# ]] || ok=0
    if ((ok)); then echo "ok $n - '$line' -> $*"
    else echo "not ok $n - '$line' gave [${COMPREPLY[*]}], want [$*]"; failed=1; fi
}

echo "1..9"
expect "$tkview b" bind bundle
expect "$tkview bi" bind
# The stages of tk_stage_kind_name(): TTIR, TTGIR, LLVM IR, PTX, SASS, AMDGCN.
expect "$tkview bind $samples/vector_add_sum --stage " ttir ttgir llir ptx sass amdgcn
expect "$tkview bind $samples/vector_add_sum --stage=tt" ttir ttgir
# sample_dumps/vector_add_sum/manifest.json:19: "name" : "add_sum_kernel",
expect "$tkview bind $samples/vector_add_sum --kernel " add_sum_kernel
# sample_dumps/matmul_configs/manifest.json:19,54,89: three kernels named
# matmul_kernel, hashes 01cca3c5..., 0cfc4f76..., b4f5182e... (lines 20, 55, 90):
# one name, so each is offered with its hash.
expect "$tkview hot $samples/matmul_configs --kernel " \
    matmul_kernel:01cca3c5 matmul_kernel:0cfc4f76 matmul_kernel:b4f5182e
# Past the ':' bash keeps the name: only the hash is completed.
expect "$tkview passes $samples/matmul_configs --kernel matmul_kernel:b" b4f5182e
expect "$tkview diff $samples/vector_add_sum -k add" add_sum_kernel
expect "$tkview diff --kernel-" --kernel-b
exit $failed
