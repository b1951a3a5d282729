"""compile_gfx942.py - Triton kernels compiled for an AMD Instinct MI300
(gfx942) on a machine without an AMD GPU, for `tkview capture`.

Nothing runs: triton.compile(ASTSource(...), target=GPUTarget("hip",
"gfx942", 64)) drives Triton's AMD backend through every stage (TTIR, TTGIR,
LLVM IR, AMDGCN assembly, HSACO), and the same dump knobs as on NVIDIA
(MLIR_ENABLE_DUMP, LLVM_IR_ENABLE_DUMP, TRITON_KERNEL_DUMP + TRITON_DUMP_DIR,
TRITON_CACHE_DIR) write the stages and the pass dumps.  Needs Triton (3.6)
only: no torch, no GPU, no ROCm.

    add_sum_kernel: a vector add with a tl.sum reduction (Triton's library
                    inlined from triton/language/standard.py)
    matmul_kernel:  a tiled matmul with tl.dot (MFMA on gfx942) and a
                    @triton.jit helper (leaky_relu) inlined under an `if`
"""
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

TARGET = None  # hip:gfx942, or TKVIEW_TARGET's (target_from_env below)


@triton.jit
def add_sum_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    total = x + y
    block_sum = tl.sum(total, axis=0)
    tl.store(out_ptr + offsets, total - block_sum, mask=mask)


@triton.jit
def leaky_relu(x, slope):
    return tl.where(x >= 0, x, slope * x)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, ACTIVATION: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if ACTIVATION:
        acc = leaky_relu(acc, 0.01)
    c = acc.to(tl.float16)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def target_from_env():
    """The GPUTarget of TKVIEW_TARGET ("hip:gfx942"), which
    `tkview capture --target BACKEND:ARCH` sets and then checks against what
    was compiled; hip:gfx942 without it:

        tkview capture --target hip:gfx942 -o amd_gfx942 -- python3 compile_gfx942.py

    Wavefronts are 64 lanes on CDNA (gfx9xx), 32 on RDNA (gfx1xxx).  (Kept
    below the kernels so that their line numbers stay those of the sample
    bundle sample_dumps/amd_gfx942.)"""
    import os
    backend, _, arch = os.environ.get("TKVIEW_TARGET", "hip:gfx942").partition(":")
    if backend == "cuda":
        return GPUTarget("cuda", int(arch), 32)
    return GPUTarget(backend, arch, 32 if arch.startswith("gfx1") else 64)


# Pointers 16-byte aligned and the leading strides multiples of 16, as a
# launch with torch tensors would tell Triton (vectorized loads).
ALIGNED = [["tt.divisibility", 16]]

KERNELS = [
    (add_sum_kernel,
     {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
      "BLOCK": "constexpr"},
     {"BLOCK": 1024},
     {(0,): ALIGNED, (1,): ALIGNED, (2,): ALIGNED},
     dict(num_warps=4)),
    (matmul_kernel,
     {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16",
      "M": "i32", "N": "i32", "K": "i32",
      "stride_am": "i32", "stride_ak": "constexpr",
      "stride_bk": "i32", "stride_bn": "constexpr",
      "stride_cm": "i32", "stride_cn": "constexpr",
      "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr",
      "ACTIVATION": "constexpr"},
     {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1,
      "BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "ACTIVATION": True},
     {(0,): ALIGNED, (1,): ALIGNED, (2,): ALIGNED, (6,): ALIGNED,
      (8,): ALIGNED, (10,): ALIGNED},
     dict(num_warps=4, num_stages=2)),
]


def main():
    global TARGET
    TARGET = target_from_env()
    for fn, signature, constexprs, attrs, options in KERNELS:
        src = ASTSource(fn=fn, signature=signature, constexprs=constexprs,
                        attrs=attrs)
        k = triton.compile(src, target=TARGET, options=options)
        stages = " ".join(sorted(k.asm.keys()))
        print(f"{fn.__name__}: {stages}")
        if TARGET.backend == "hip":
            assert "amdgcn" in k.asm and "hsaco" in k.asm, stages
            assert TARGET.arch in k.asm["amdgcn"]
    print("compile_gfx942 ok (%s:%s)" % (TARGET.backend, TARGET.arch))


if __name__ == "__main__":
    main()
