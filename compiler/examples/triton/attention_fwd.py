"""attention_fwd.py - a causal FlashAttention-style forward, for `tkview capture`.

Each program takes BLOCK_M query rows of one head and walks the keys in
BLOCK_N blocks with an online softmax.  The walk is the @triton.jit helper
_attn_inner, called at two call sites: STAGE=1 for the key blocks left of the
diagonal (no mask needed) and STAGE=2 for the block on the diagonal (causal
mask).  Triton inlines the helper twice, so its IR lines carry one of two
call sites as their caller frame, and each call is a statement wrapped over
several source lines.  Both tl.dot calls become Hopper wgmma on an H100/H200.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_n,
                start_m, qk_scale, offs_m, offs_n,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                STAGE: tl.constexpr):
    # STAGE 1: the key blocks left of the diagonal; STAGE 2: the diagonal one.
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    else:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    k_ptrs += lo * stride_n
    v_ptrs += lo * stride_n
    for start_n in range(lo, hi, BLOCK_N):
        k = tl.load(k_ptrs)
        qk = tl.dot(q, k)
        if STAGE == 2:
            causal = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(causal, 0.0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
        k_ptrs += BLOCK_N * stride_n
        v_ptrs += BLOCK_N * stride_n
    return acc, l_i, m_i


@triton.jit
def attn_fwd(Q, K, V, Out, sm_scale, stride_h, stride_n,
             HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
             BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    base = off_h * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * stride_n + offs_d[None, :])
    # K is read transposed ([HEAD_DIM, BLOCK_N]) so that q @ k is a plain dot.
    k_ptrs = K + base + offs_d[:, None] + offs_n[None, :] * stride_n
    v_ptrs = V + base + offs_n[:, None] * stride_n + offs_d[None, :]
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # softmax in base 2: exp(x) = exp2(x * log2(e))
    # Off-band: every key block strictly left of the diagonal.
    acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_n,
                                start_m, qk_scale, offs_m, offs_n,
                                BLOCK_M, BLOCK_N, STAGE=1)
    # On-band: the diagonal block, with the causal mask.
    acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_n,
                                start_m, qk_scale, offs_m, offs_n,
                                BLOCK_M, BLOCK_N, STAGE=2)
    acc = acc / l_i[:, None]
    o_ptrs = Out + base + offs_m[:, None] * stride_n + offs_d[None, :]
    tl.store(o_ptrs, acc.to(tl.float16))


def main():
    B, H, N, D = 1, 2, 256, 64
    BLOCK_M, BLOCK_N = 64, 32
    torch.manual_seed(0)
    q = torch.randn(B, H, N, D, device="cuda", dtype=torch.float16)
    k = torch.randn(B, H, N, D, device="cuda", dtype=torch.float16)
    v = torch.randn(B, H, N, D, device="cuda", dtype=torch.float16)
    out = torch.empty_like(q)
    sm_scale = 1.0 / D ** 0.5
    grid = (triton.cdiv(N, BLOCK_M), B * H)
    attn_fwd[grid](q, k, v, out, sm_scale, q.stride(1), q.stride(2),
                   HEAD_DIM=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                   num_warps=4, num_stages=2)
    want = torch.nn.functional.scaled_dot_product_attention(
        q.float(), k.float(), v.float(), is_causal=True, scale=sm_scale)
    torch.testing.assert_close(out.float(), want, rtol=2e-2, atol=2e-2)
    print("attention_fwd ok")


if __name__ == "__main__":
    main()
