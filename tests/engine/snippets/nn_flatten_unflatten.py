import torch
from torch import nn

x = torch.arange(24.0).reshape(2, 3, 4)
print(nn.Flatten()(x).shape, nn.Flatten(0)(x).shape, nn.Flatten(0, 1)(x).shape)
print(nn.Flatten(), nn.Flatten(0, 1))
u = nn.Unflatten(1, (2, 6))
print(u, u(x.reshape(2, 12)).shape)
f = nn.Flatten()(x.requires_grad_())
print(f.grad_fn.name(), torch.flatten(x, 1).grad_fn.name(), x.view(2, -1).grad_fn.name())
print(x.flatten().shape, x.flatten(start_dim=1, end_dim=-1).shape)
print(nn.Identity(54, unused="x")(x).equal(x), nn.Identity())
