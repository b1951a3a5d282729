"""matmul_profile.py - a pipelined fp16 matmul big enough to profile, for
`tkview capture` under Nsight Compute.

C = leaky_relu(A @ B) with 2048x2048x2048 fp16 inputs: 128x128x64 tiles, a
K loop that Triton's software pipeliner runs 3 stages deep (TMA-free loads
into shared memory, wgmma on an H100/H200), tiles visited in groups of
GROUP_M rows for L2 reuse.  Two @triton.jit helpers are inlined: the tile
order (_tile_of) and the epilogue (leaky_relu).  The kernel runs three times;
`ncu --launch-count 1 -k regex:matmul_pipelined` profiles the first launch,
whose cubin is the one the capture dumped.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _tile_of(pid, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             GROUP_M: tl.constexpr):
    # Programs go down GROUP_M tile rows before moving right: neighbouring
    # programs share A rows and B columns in L2.
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = pid // (GROUP_M * num_n)
    first_m = group * GROUP_M
    group_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % (GROUP_M * num_n)) % group_m
    pid_n = (pid % (GROUP_M * num_n)) // group_m
    return pid_m, pid_n


@triton.jit
def leaky_relu(x, slope):
    return tl.where(x >= 0, x, slope * x)


@triton.jit
def matmul_pipelined(a_ptr, b_ptr, c_ptr, M, N, K,
                     stride_am, stride_ak, stride_bk, stride_bn,
                     stride_cm, stride_cn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid_m, pid_n = _tile_of(tl.program_id(0), M, N,
                            BLOCK_M, BLOCK_N, GROUP_M)
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
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
    acc = leaky_relu(acc, 0.01)
    c = acc.to(tl.float16)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def main():
    M = N = K = 2048
    BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M = 128, 128, 64, 8
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    for _ in range(3):
        matmul_pipelined[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                               b.stride(0), b.stride(1),
                               c.stride(0), c.stride(1),
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                               BLOCK_K=BLOCK_K, GROUP_M=GROUP_M,
                               num_warps=4, num_stages=3)
    torch.cuda.synchronize()
    want = torch.nn.functional.leaky_relu(a.float() @ b.float(), 0.01)
    torch.testing.assert_close(c.float(), want, rtol=2e-2, atol=1e-1)
    print("matmul_profile ok")


if __name__ == "__main__":
    main()
