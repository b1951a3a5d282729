"""vector_add_sum.py - a vector add with a reduction, for `tkview capture`.

out = x + y - sum(x + y) per block: tl.sum inlines Triton's reduction code
from triton/language/standard.py, so its IR carries inline stacks.
"""
import torch
import triton
import triton.language as tl


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


def main():
    n, block = 98432, 1024
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    add_sum_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    total = (x + y).view(-1)
    pad = torch.zeros(triton.cdiv(n, block) * block - n, device="cuda")
    sums = torch.cat([total, pad]).view(-1, block).sum(dim=1)
    want = total - sums.repeat_interleave(block)[:n]
    torch.testing.assert_close(out, want, rtol=1e-4, atol=1e-3)
    print("vector_add_sum ok")


if __name__ == "__main__":
    main()
