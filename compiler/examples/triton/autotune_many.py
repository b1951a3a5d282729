"""autotune_many.py - one small-tile fp16 matmul autotuned by Triton's @autotune
over the first AUTOTUNE_N (default 20) of twenty configs, for measuring how a
bundle grows with the number of configs (1 vs 20).

Tiles are kept small (32 and 64) so that twenty compiles under the dump knobs
take a minute, not ten.  Configs differ in tile sizes, num_warps and
num_stages, as real autotuning lists do.
"""
import itertools
import os

import torch
import triton
import triton.language as tl

ALL = [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": 32}, num_warps=w, num_stages=s)
       for (bm, bn), w, s in itertools.product([(32, 32), (32, 64), (64, 32), (64, 64), (64, 128)],
                                                [2, 4], [2, 3])]
CONFIGS = ALL[:int(os.environ.get("AUTOTUNE_N", "20"))]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"])
@triton.jit
def many_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                       stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
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
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def main():
    M = N = K = 1024
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))
    many_matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                             b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    torch.testing.assert_close(c.float(), a.float() @ b.float(), rtol=2e-2, atol=1e-1)
    print("autotune_many ok: %d configs" % len(CONFIGS))


if __name__ == "__main__":
    main()
