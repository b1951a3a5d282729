"""autotune_matmul.py - a matmul autotuned over five configs by Triton's @autotune.

Run with TRITON_PRINT_AUTOTUNING=1 to have Triton print the winner.  Every config
is compiled and benchmarked once (the autotuner keeps the timings in
`configs_timings`); this program also writes them as JSON to the file named by
AUTOTUNE_TIMINGS_OUT (test data: what a capture must find on its own).
"""
import json
import os

import torch
import triton
import triton.language as tl

CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=4, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=8, num_stages=4),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 64}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=4, num_stages=5),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64}, num_warps=8, num_stages=3),
]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"])
@triton.jit
def autotuned_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
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
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, acc.to(tl.float16), mask=c_mask)


def main():
    M, N, K = 2048, 2048, 2048
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))
    autotuned_matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                                  b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    torch.testing.assert_close(c.float(), a.float() @ b.float(), rtol=2e-2, atol=1e-1)
    out = os.environ.get("AUTOTUNE_TIMINGS_OUT")
    if out:
        rows = [{"kwargs": cfg.kwargs, "num_warps": cfg.num_warps, "num_stages": cfg.num_stages,
                 "ms": list(t)} for cfg, t in autotuned_matmul_kernel.configs_timings.items()]
        best = autotuned_matmul_kernel.best_config
        with open(out, "w") as f:
            json.dump({"configs": rows, "best": {"kwargs": best.kwargs, "num_warps": best.num_warps,
                                                 "num_stages": best.num_stages}}, f, indent=1)
    print("autotune_matmul ok")


if __name__ == "__main__":
    main()
