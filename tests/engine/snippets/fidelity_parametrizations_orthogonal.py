import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import orthogonal

torch.manual_seed(0)
for shape in [(4, 4), (6, 3), (3, 6)]:
    for omap in [None, "matrix_exp", "cayley", "householder"]:
        for triv in (True, False):
            lin = nn.Linear(shape[1], shape[0])
            try:
                orthogonal(lin, orthogonal_map=omap, use_trivialization=triv)
            except Exception as e:
                print(shape, omap, triv, type(e).__name__, e)
                continue
            W = lin.weight
            n, k = W.shape
            I = W @ W.T if n < k else W.T @ W
            print(shape, omap, triv, W.grad_fn.name(), torch.allclose(I, torch.eye(min(n, k)), atol=1e-5))
            print(W.detach().round(decimals=3))
            opt = torch.optim.SGD(lin.parameters(), lr=0.1)
            x = torch.randn(2, shape[1])
            lin(x).pow(2).sum().backward()
            print([tuple(p.shape) for p in lin.parameters()], lin.parametrizations.weight.original.grad.abs().sum().round(decimals=3))
            opt.step()
            W = lin.weight
            I = W @ W.T if n < k else W.T @ W
            print(torch.allclose(I, torch.eye(min(n, k)), atol=1e-5), sorted(lin.state_dict().keys()))
m = orthogonal(nn.Linear(5, 5))
print(m)
Q = torch.linalg.qr(torch.randn(5, 5)).Q
m.weight = Q
print(torch.dist(m.weight, Q) < 1e-5)
try:
    orthogonal(nn.Linear(3, 3), orthogonal_map="svd")
except ValueError as e:
    print(e)
try:
    orthogonal(nn.Linear(3, 3), name="bias")
except ValueError as e:
    print(e)
try:
    orthogonal(nn.Linear(3, 3), name="foo")
except ValueError as e:
    print(e)
