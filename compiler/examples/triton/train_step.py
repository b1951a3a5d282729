"""train_step.py - one torch.compile training step of a small transformer block.

A pre-norm block (layer norm, causal self-attention written out with matmuls and
a softmax, a GELU MLP) compiled with torch.compile; one forward, backward and
AdamW step.  Inductor writes the forward's and the backward's Triton kernels
(fused norms, softmax and its gradient, GELU and its gradient, reductions), the
program the capture timings of issue 25 are measured on (bench/capture_bench.py).
Prints "train_step ok" when the loss went down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d=256, heads=4):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2)
                   for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (d // self.heads) ** -0.5
        mask = torch.ones(t, t, device=x.device, dtype=torch.bool).tril()
        att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.proj(y)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def main():
    torch.manual_seed(0)
    model = Block().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    step = torch.compile(model)
    x = torch.randn(8, 128, 256, device="cuda")
    target = torch.randn(8, 128, 256, device="cuda")
    losses = []
    for _ in range(3):
        loss = F.mse_loss(step(x), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    torch.cuda.synchronize()
    assert losses[-1] < losses[0], losses
    print("train_step ok")


if __name__ == "__main__":
    main()
