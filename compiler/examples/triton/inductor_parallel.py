"""inductor_parallel.py - a small torch.compile program whose kernels Inductor
compiles in its parallel compile workers (its default), for `tkview capture`.

Five different Triton kernels come out of it (a layer norm fused with GELU, a
softmax, a column sum, a cumulative sum, a row max).  Inductor compiles in its
worker processes only once their pool is up, so the program waits for the pool
first; with TORCHINDUCTOR_COMPILE_THREADS=1 everything compiles in this
process instead (the serial capture to compare with).  Prints this process's
id, so a capture can tell which compiles ran in a worker.
"""
import os

import torch
import torch.nn.functional as F


def f(x, w, b):
    y = F.gelu(F.layer_norm(x, (x.shape[-1],), w, b))
    s = torch.softmax(y * 3.0 + x, dim=-1)
    col = s.sum(dim=0)
    scan = torch.cumsum(x, dim=-1)
    top = (x * 2.0 - 1.0).amax(dim=-1)
    return s, col, scan, top


def wait_for_workers():
    try:
        from torch._inductor.async_compile import AsyncCompile
        AsyncCompile.warm_pool()
        pool = AsyncCompile.process_pool()
        ready = getattr(pool, 'ready_future', None)
        if ready is not None:
            ready.result(timeout=300)
        print('inductor_parallel: compile workers ready', flush=True)
    except Exception as e:  # an older or newer torch: compile as it will
        print('inductor_parallel: could not wait for the workers: %r' % (e,), flush=True)


def main():
    print('inductor_parallel: pid %d, compile threads %s' %
          (os.getpid(), os.environ.get('TORCHINDUCTOR_COMPILE_THREADS', 'default')), flush=True)
    if os.environ.get('TORCHINDUCTOR_COMPILE_THREADS') != '1':
        wait_for_workers()
    torch.manual_seed(0)
    x = torch.randn(512, 768, device='cuda')
    w = torch.randn(768, device='cuda')
    b = torch.randn(768, device='cuda')
    got = torch.compile(f)(x, w, b)
    want = f(x, w, b)
    for g, e in zip(got, want):
        torch.testing.assert_close(g, e, rtol=1e-3, atol=1e-3)
    print('inductor_parallel: ok', flush=True)


if __name__ == '__main__':
    main()
