import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import weight_norm


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
with torch.no_grad():
    layer.weight.copy_(torch.arange(9.0).reshape(3, 3) / 10)
    layer.bias.fill_(0.1)
P.register_parametrization(layer, "weight", Symmetric())
print(layer)
print(layer.weight)
print(P.is_parametrized(layer), P.is_parametrized(layer, "weight"), P.is_parametrized(layer, "bias"))
print([n for n, _ in layer.named_parameters()])
print(list(layer.state_dict().keys()))
print(layer.parametrizations.weight.original)
out = layer(torch.ones(2, 3)).sum()
out.backward()
print(layer.parametrizations.weight.original.grad)
with P.cached():
    print(layer.weight is layer.weight)
print(layer.weight is layer.weight)
P.remove_parametrizations(layer, "weight")
print(layer)
print(layer.weight)

m = nn.Linear(3, 2)
with torch.no_grad():
    m.weight.copy_(torch.arange(6.0).reshape(2, 3) / 5)
    m.bias.fill_(0.1)
wm = weight_norm(m)
print(wm)
print([n for n, _ in wm.named_parameters()])
print(wm.weight, wm.weight.grad_fn.name())
g = wm.parametrizations.weight.original0
v = wm.parametrizations.weight.original1
print(g, v)
y = wm(torch.tensor([[1.0, -1.0, 2.0]])).pow(2).sum()
y.backward()
print(g.grad, v.grad)
torch.manual_seed(0)
c = weight_norm(nn.Conv1d(2, 2, 2), dim=None)
print(c.parametrizations.weight.original0)
print(torch.norm_except_dim(torch.arange(6.0).reshape(2, 3), 2, 1))
