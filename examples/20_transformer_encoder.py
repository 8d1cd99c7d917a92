# title: A 2-layer nn.TransformerEncoder, one backward pass
# Two encoder layers (self-attention with 2 heads, a feed-forward block, LayerNorms and
# residual connections) on a batch of 2 sequences of 5 tokens. Each layer starts collapsed to
# one box; click one to open it, then its attention or feed-forward parts.
import torch
from torch import nn

torch.manual_seed(0)

layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
x = torch.randn(2, 5, 16)
target = torch.randn(2, 5, 16)

out = encoder(x)
loss = nn.functional.mse_loss(out, target)
loss.backward()

print(out.shape)
print(f"loss {loss.item():.4f}")
print(encoder.layers[0].linear1.weight.grad.norm())
