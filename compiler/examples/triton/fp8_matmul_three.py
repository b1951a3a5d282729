"""fp8_matmul_three.py - one FP8 matmul kernel compiled three ways in one program.

    A: num_stages=3
    B: num_stages=4                       (the pipeliner acts differently)
    C: num_stages=3, enable_fp_fusion=False
                                          (identical to A up to LLVM IR: the option
                                           acts only when LLVM emits PTX, where
                                           `acc * scale + bias` stops being an fma)

The epilogue `acc * scale + bias` is there so that fp fusion has something to fuse.
Each result is checked against PyTorch.  Needs an sm_89+ GPU (FP8 e4m3).
"""
import torch
import triton
import triton.language as tl

CONFIGS = [
    dict(num_warps=4, num_stages=3),
    dict(num_warps=4, num_stages=4),
    dict(num_warps=4, num_stages=3, enable_fp_fusion=False),
]


@triton.jit
def fp8_matmul_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, scale, M, N, K,
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
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    bias = tl.load(bias_ptr + offs_n)
    out = acc * scale + bias[None, :]
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, out.to(tl.float16), mask=c_mask)


def main():
    M, N, K = 1024, 1024, 1024
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn).T  # K x N, column-major
    bias = torch.randn(N, device="cuda", dtype=torch.float32)
    scale = 0.5
    want = (a.float() @ b.float()) * scale + bias
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    for cfg in CONFIGS:
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        fp8_matmul_kernel[grid](a, b, c, bias, scale, M, N, K,
                                a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                c.stride(0), c.stride(1),
                                BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, **cfg)
        torch.testing.assert_close(c.float(), want, rtol=2e-2, atol=2e-1)
    print("fp8_matmul_three ok")


if __name__ == "__main__":
    main()
