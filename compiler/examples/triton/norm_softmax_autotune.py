"""norm_softmax_autotune.py - a layer norm and a row softmax, each autotuned.

A program written for measuring capture (issue 25: "a program you have not
seen"), not captured into any sample: two kernels, each with an autotune
list, so the run compiles 6 + 4 configurations and keeps the best:

  layer_norm_kernel  y = (x - mean) / sqrt(var + eps) * w + b, one row per
                     program, the row in BLOCK-wide chunks (two passes)
  softmax_kernel     y = softmax(x * scale) of one row per program, the row
                     whole in registers (BLOCK >= N)

Each result is checked against PyTorch.  Any CUDA GPU Triton supports.
"""
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({'BLOCK': b}, num_warps=w)
             for b, w in ((256, 2), (512, 4), (1024, 4), (1024, 8), (2048, 8), (4096, 16))],
    key=['N'])
@triton.jit
def layer_norm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        y = (x - mean) * rstd * w + b
        tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.autotune(
    configs=[triton.Config({}, num_warps=w, num_stages=s)
             for w, s in ((4, 1), (8, 1), (8, 2), (16, 2))],
    key=['N'])
@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, N, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float('inf')).to(tl.float32)
    x = x * scale
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def main():
    torch.manual_seed(0)
    M, N = 4096, 3000
    x = torch.randn(M, N, device='cuda', dtype=torch.float16)
    w = torch.randn(N, device='cuda', dtype=torch.float32)
    b = torch.randn(N, device='cuda', dtype=torch.float32)
    y = torch.empty_like(x)
    layer_norm_kernel[(M,)](x, y, w, b, x.stride(0), N, 1e-5)
    want = torch.nn.functional.layer_norm(x.float(), (N,), w, b, 1e-5)
    torch.testing.assert_close(y.float(), want, rtol=1e-2, atol=2e-2)

    s = torch.empty_like(x)
    softmax_kernel[(M,)](y, s, y.stride(0), N, 0.125, BLOCK=triton.next_power_of_2(N))
    want = torch.softmax(y.float() * 0.125, dim=1)
    torch.testing.assert_close(s.float(), want, rtol=1e-2, atol=1e-3)
    print('norm_softmax_autotune ok')


if __name__ == '__main__':
    main()
