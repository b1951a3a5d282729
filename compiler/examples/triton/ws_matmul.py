"""ws_matmul.py - a persistent TMA matmul compiled warp-specialized and plain.

The same source twice, differing only in WARP_SPECIALIZE (a constexpr passed to
`tl.range(..., warp_specialize=...)`): the specialized compile's metadata counts the
partitions' warps too (num_warps 4 asked, more reported) while its dumps say 4.
Tensor descriptors are made in the kernel (`tl.make_tensor_descriptor`, TMA), so the
compiler chooses their blocks (diag_ws_store.py shows what host-side ones do).
Needs Hopper (sm_90) or later.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             BLOCK_K: tl.constexpr, NUM_SMS: tl.constexpr,
                             WARP_SPECIALIZE: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BLOCK_N, BLOCK_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
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
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                 device="cuda"))
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(N, K, device="cuda", dtype=torch.float16)
    want = a.float() @ b.float().T
    num_sms = torch.cuda.get_device_properties("cuda").multi_processor_count
    for ws in (True, False):
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        grid = (min(num_sms, triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)),)
        persistent_matmul_kernel[grid](a, b, c, M, N, K,
                                       BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                       NUM_SMS=num_sms, WARP_SPECIALIZE=ws,
                                       num_warps=4, num_stages=3)
        torch.testing.assert_close(c.float(), want, rtol=2e-2, atol=1e-1)
    print("ws_matmul ok")


if __name__ == "__main__":
    main()
