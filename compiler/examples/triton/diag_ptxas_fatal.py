"""diag_ptxas_fatal.py - a compile that ptxas refuses: too few registers for wgmma.

regcap_matmul_kernel is a 64x256 fp16 matmul at num_warps=4: one wgmma m64n256 holds its
128-register fp32 accumulator plus operands in registers at once, and with maxnreg=128
ptxas stops with
`(C7602) Insufficient registers (128) to compile instruction at line N` where line N
is a line of the kernel's PTX.  Triton has dumped TTIR, TTGIR, LLIR and PTX by then;
no cubin is made and the program ends with a PTXASError traceback (uncaught, on
purpose: this is what a user sees).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def regcap_matmul_kernel(a_ptr, b_ptr, c_ptr, K,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
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
    a = torch.randn(64, 256, device="cuda", dtype=torch.float16)
    b = torch.randn(256, 256, device="cuda", dtype=torch.float16)
    c = torch.empty(64, 256, device="cuda", dtype=torch.float32)
    regcap_matmul_kernel[(1, 1)](a, b, c, 256, BLOCK_M=64, BLOCK_N=256, BLOCK_K=64,
                                 num_warps=4, num_stages=3, maxnreg=128)
    print("diag_ptxas_fatal: compiled (ptxas did not refuse)")


if __name__ == "__main__":
    main()
