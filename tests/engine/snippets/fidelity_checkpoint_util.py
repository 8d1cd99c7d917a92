import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
layer = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(3, 4, requires_grad=True)
out = checkpoint(layer, x, use_reentrant=False)
print(out, out.grad_fn is not None)
out.sum().backward()
print(x.grad)
g1 = layer[0].weight.grad.clone()
layer.zero_grad()
x.grad = None
layer(x).sum().backward()
print(torch.allclose(g1, layer[0].weight.grad), x.grad)
