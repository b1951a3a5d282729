"""diag_type_error.py - a kernel Triton's front end refuses (a CompilationError).

`tl.dot` of two 1-D blocks: the front end raises a CompilationError naming the line
and column of the dot, before any IR exists.  Uncaught on purpose: the traceback is
what a user sees.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def bad_dot_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.dot(x, y)
    tl.store(out_ptr + offs, z)


def main():
    x = torch.randn(64, device="cuda", dtype=torch.float16)
    y = torch.randn(64, device="cuda", dtype=torch.float16)
    out = torch.empty(64, device="cuda", dtype=torch.float32)
    bad_dot_kernel[(1,)](x, y, out, BLOCK=64)


if __name__ == "__main__":
    main()
