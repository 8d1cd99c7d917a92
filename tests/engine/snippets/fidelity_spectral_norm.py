import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import spectral_norm

torch.manual_seed(0)
snm = spectral_norm(nn.Linear(4, 3))
print(snm)
print(snm.parametrizations.weight.original.shape)
print(snm.parametrizations.weight[0]._u, snm.parametrizations.weight[0]._v)
w = snm.weight
print(w, w.grad_fn.name())
print(torch.linalg.svdvals(w.double())[0].round(decimals=4))
x = torch.arange(8.0).reshape(2, 4) / 8
y = snm(x).sum()
y.backward()
print(snm.parametrizations.weight.original.grad)
snm.eval()
print(snm(x))
print(sorted(snm.state_dict().keys()))
torch.manual_seed(3)
conv = spectral_norm(nn.Conv2d(2, 3, 2), n_power_iterations=2)
print(conv.weight.flatten(1).shape, conv.parametrizations.weight[0]._u)
