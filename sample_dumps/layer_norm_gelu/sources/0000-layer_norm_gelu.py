"""layer_norm_gelu.py - a layer norm and an erf GELU, for `tkview capture`.

layer_norm_fwd calls a @triton.jit helper (_mean_var) that holds both
reductions.  gelu_erf calls libdevice's erf: Triton links __nv_erff into the
LLVM module, so LLVM's function passes run on two functions, one after the
other, until the inliner folds erf into the kernel.
"""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _mean_var(x, mask, N: tl.constexpr):
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    return mean, xc, var


@triton.jit
def layer_norm_fwd(X, Y, W, B, stride, N: tl.constexpr, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean, xc, var = _mean_var(x, mask, N)
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    y = xc * rstd * w + b
    tl.store(Y + row * stride + cols, y, mask=mask)


@triton.jit
def gelu_erf(X, Y, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(X + i, mask=m)
    y = 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476))
    tl.store(Y + i, y, mask=m)


def main():
    torch.manual_seed(0)
    x = torch.randn(64, 1000, device="cuda")
    w = torch.randn(1000, device="cuda")
    b = torch.randn(1000, device="cuda")
    y = torch.empty_like(x)
    layer_norm_fwd[(64,)](x, y, w, b, x.stride(0), 1000, 1e-5, BLOCK=1024)
    ref = torch.nn.functional.layer_norm(x, (1000,), w, b, 1e-5)
    print("layer_norm max error", (y - ref).abs().max().item())

    xx = torch.randn(5000, device="cuda")
    yy = torch.empty_like(xx)
    gelu_erf[(5,)](xx, yy, 5000, BLOCK=1024)
    print("gelu max error", (yy - torch.nn.functional.gelu(xx)).abs().max().item())


if __name__ == "__main__":
    main()
