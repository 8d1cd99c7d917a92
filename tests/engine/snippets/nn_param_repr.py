import torch
from torch import nn

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(repr(p))
print(p.requires_grad, p.is_leaf, type(p).__name__, isinstance(p, torch.Tensor))
q = nn.Parameter(torch.zeros(2, 2), requires_grad=False)
print(q)
print(p * 2)
print((p * 2).grad_fn)
print(p.data)
print(p.detach())
print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
print(p.shape, p.dtype)
print(str(p) == repr(p))
try:
    nn.Parameter(torch.tensor([1, 2]))
except RuntimeError as e:
    print(e)
m = nn.Linear(2, 2)
print(type(m.weight).__name__, m.weight.shape, m.bias.shape)
w = m.weight
m.weight = nn.Parameter(torch.ones(2, 2))
print(m.weight)
try:
    m.weight = torch.ones(2, 2)
except TypeError as e:
    print(e)
