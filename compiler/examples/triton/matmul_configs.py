"""matmul_configs.py - one matmul kernel compiled in three configurations,
for `tkview capture` and comparing compilations.

The same source and the same tiles (128x64x32) compiled three times:

    A: num_warps=4, num_stages=3
    B: num_warps=4, num_stages=2   (differs from A only in num_stages:
                                    the software pipeliner is the first
                                    pass to act differently)
    C: num_warps=8, num_stages=3   (differs from A only in num_warps: the
                                    layouts differ from the TTGIR conversion
                                    on)

Each launch compiles a separate kernel (its own Triton hash); each result is
checked against PyTorch.
"""
import torch
import triton
import triton.language as tl

CONFIGS = [
    dict(num_warps=4, num_stages=3),
    dict(num_warps=4, num_stages=2),
    dict(num_warps=8, num_stages=3),
]


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
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
    c = acc.to(tl.float16)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def main():
    M, N, K = 512, 512, 512
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 64, 32
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    want = a.float() @ b.float()
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    for cfg in CONFIGS:
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                            b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                            **cfg)
        torch.testing.assert_close(c.float(), want, rtol=2e-2, atol=5e-2)
    print("matmul_configs ok")


if __name__ == "__main__":
    main()
