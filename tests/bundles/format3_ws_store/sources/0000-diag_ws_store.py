"""diag_ws_store.py - a warp-specialized compile that Triton 3.6 fails in a pass.

A persistent matmul with host-side tensor descriptors (TMA) whose tile loop asks for
`tl.range(..., warp_specialize=True)`.  On Hopper, Triton 3.6's NVGPUWarpSpecialization
pass splits the epilogue's 128x128 store into 64-row halves but keeps the host
descriptor's 128x128 block, and its verifier stops the compile:
`error: 'tt.descriptor_store' op tensor descriptor block and tensor types must match`
on the store line, then "Failures have been detected while processing an MLIR pass
pipeline" with the pass named, an MLIR reproducer, and a RuntimeError traceback.
Uncaught on purpose: test data for a compile that fails inside a named pass.
(ws_matmul.py is the same kernel with in-kernel descriptors, which compiles.)
"""
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def persistent_matmul_kernel(a_desc, b_desc, c_desc, M, N, K,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             BLOCK_K: tl.constexpr, NUM_SMS: tl.constexpr,
                             WARP_SPECIALIZE: tl.constexpr):
    start_pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS,
                            warp_specialize=WARP_SPECIALIZE):
        pid_m = tile_id // num_pid_n
        pid_n = tile_id % num_pid_n
        offs_am = pid_m * BLOCK_M
        offs_bn = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([offs_am, offs_bn], acc.to(tl.float16))


def main():
    M, N, K = 2048, 2048, 1024
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(N, K, device="cuda", dtype=torch.float16)
    want = a.float() @ b.float().T
    num_sms = torch.cuda.get_device_properties("cuda").multi_processor_count
    for ws in (True, False):
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        a_desc = TensorDescriptor(a, a.shape, a.stride(), [BLOCK_M, BLOCK_K])
        b_desc = TensorDescriptor(b, b.shape, b.stride(), [BLOCK_N, BLOCK_K])
        c_desc = TensorDescriptor(c, c.shape, c.stride(), [BLOCK_M, BLOCK_N])
        grid = (min(num_sms, triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)),)
        persistent_matmul_kernel[grid](a_desc, b_desc, c_desc, M, N, K,
                                       BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                       NUM_SMS=num_sms, WARP_SPECIALIZE=ws,
                                       num_warps=4, num_stages=3)
        torch.testing.assert_close(c.float(), want, rtol=2e-2, atol=1e-1)
    print("diag_ws_store: compiled")


if __name__ == "__main__":
    main()
