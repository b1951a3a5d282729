"""big_tile.py - one Triton kernel whose pass dumps are huge, for measuring
tkview on the biggest dumps (issue 11).

A tl.dot and a tl.sum over a 4096x128 block: each thread holds thousands of
accumulator registers, so the unoptimized LLVM dialect right after
ConvertTritonGPUToLLVM is one module of about 2 GB with struct types of
thousands of fields (lines up to 32 KB).  Compiled only (triton.compile on an
ASTSource for sm_90): nothing runs, so no GPU memory is needed, and the
machine needs only Triton.

    tkview capture -o big_tile.tkview -- python3 big_tile.py

Expect minutes of compile time and gigabytes of dumps.
"""
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def big_tile_kernel(a_ptr, b_ptr, c_ptr, s_ptr,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * BLOCK_N + offs_n[None, :])
    c = tl.dot(a, b)
    s = tl.sum(c, axis=1)
    tl.store(c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], c)
    tl.store(s_ptr + offs_m, s)


def main():
    import os
    block_m = int(os.environ.get("BIG_TILE_M", "4096"))
    src = ASTSource(
        fn=big_tile_kernel,
        signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32",
                   "s_ptr": "*fp32", "BLOCK_M": "constexpr",
                   "BLOCK_N": "constexpr", "BLOCK_K": "constexpr"},
        constexprs={"BLOCK_M": block_m, "BLOCK_N": 128, "BLOCK_K": 32},
        attrs={(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]],
               (2,): [["tt.divisibility", 16]], (3,): [["tt.divisibility", 16]]})
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                       options=dict(num_warps=4))
    print("big_tile_kernel (BLOCK_M=%d): %s" % (block_m, " ".join(sorted(k.asm))))


if __name__ == "__main__":
    main()
