"""diag_remarks.py - kernels that compile, with something to say about them.

    small_dot_kernel    a tl.dot whose tile (32 rows) is too small for Hopper's wgmma:
                        Triton's AccelerateMatmul remarks "MMA version 3 acceleration not
                        applied" (seen with MLIR_ENABLE_DIAGNOSTICS=remarks) and uses mma.sync
    spill_rows_kernel   a row softmax over a 64x256 fp32 tile (128 values a thread) compiled
                        with maxnreg=64: ptxas spills (TRITON_DUMP_PTXAS_LOG=1 shows the bytes)
    serialized_dot_kernel
                        a 128x128 fp16 matmul loop at num_warps=4 capped at maxnreg=128: ptxas
                        warns (C7511) that the wgmma are serialized for want of registers,
                        and spills

Each result is checked against PyTorch.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def small_dot_kernel(a_ptr, b_ptr, c_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * BLOCK_N + offs_n[None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], c)


@triton.jit
def spill_rows_kernel(x_ptr, y_ptr, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    offs = rows[:, None] * n_cols + cols[None, :]
    x = tl.load(x_ptr + offs)
    x_max = tl.max(x, axis=1)
    e = tl.exp(x - x_max[:, None])
    denom = tl.sum(e, axis=1)
    y = e / denom[:, None] + x * 0.001
    tl.store(y_ptr + offs, y)


@triton.jit
def serialized_dot_kernel(a_ptr, b_ptr, c_ptr, K,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * BLOCK_N + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * BLOCK_N
    tl.store(c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], acc)


def main():
    torch.manual_seed(0)
    a = torch.randn(32, 64, device="cuda", dtype=torch.float16)
    b = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    c = torch.empty(32, 64, device="cuda", dtype=torch.float32)
    small_dot_kernel[(1,)](a, b, c, BLOCK_M=32, BLOCK_N=64, BLOCK_K=64, num_warps=4)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-2, atol=1e-2)

    x = torch.randn(256, 256, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    spill_rows_kernel[(256 // 64,)](x, y, 256, BLOCK_R=64, BLOCK_C=256, num_warps=4, maxnreg=64)
    torch.testing.assert_close(y, torch.softmax(x, dim=1) + x * 0.001, rtol=1e-4, atol=1e-5)

    a = torch.randn(128, 256, device="cuda", dtype=torch.float16)
    b = torch.randn(256, 128, device="cuda", dtype=torch.float16)
    c = torch.empty(128, 128, device="cuda", dtype=torch.float32)
    serialized_dot_kernel[(1,)](a, b, c, 256, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                                num_warps=4, num_stages=3, maxnreg=128)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-2, atol=5e-2)
    print("diag_remarks ok")


if __name__ == "__main__":
    main()
