"""inductor_autotune.py - a small torch.compile(mode="max-autotune") program
for `tkview capture`: Inductor benchmarks its Triton matmul template over
the configurations it has for this shape and keeps the fastest.

One fp16 matmul of 64 x 64 by 64 x 64: Inductor clamps its template's tile
sizes to the problem, so only a handful of distinct configurations are
compiled and timed (a small capture).  Only Triton templates are asked for
(max_autotune_gemm_backends = "TRITON"): the winner is then one of the
compiles, never aten's mm.  Inductor prints its "AUTOTUNE mm(...)" table
to stderr: the times a capture must show.

Not force_disable_caches: with it Inductor compiles into a Triton cache of
its own under its temporary folder (TORCHINDUCTOR_CACHE_DIR/tmpXXXX/triton),
not TRITON_CACHE_DIR.  tkview reads that cache too (kernel_dump/ alone,
whose folders Triton 3.6 names by the source's hash, holds one folder for
two choices that differ only in num_warps or num_stages), but the capture
here shows the common case.
"""
import torch
import torch._inductor.config as inductor_config


def f(a, b):
    return a @ b


def main():
    inductor_config.max_autotune_gemm_backends = "TRITON"
    torch.manual_seed(0)
    a = torch.randn(64, 64, device='cuda', dtype=torch.float16)
    b = torch.randn(64, 64, device='cuda', dtype=torch.float16)
    got = torch.compile(f, mode="max-autotune")(a, b)
    want = f(a, b)
    torch.testing.assert_close(got, want, rtol=1e-2, atol=1e-2)
    print('inductor_autotune: ok', flush=True)


if __name__ == '__main__':
    main()
