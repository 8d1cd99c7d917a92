import torch

a = torch.tensor([0.5, 1.0, 2.5, 7.25, -1.5], requires_grad=True)
lg = torch.lgamma(a)
print(lg, torch.special.gammaln(a).grad_fn.name())
dg = torch.special.digamma(a)
print(dg, torch.special.psi(a))
pg = torch.special.polygamma(1, a)
print(pg, torch.polygamma(2, a), a.polygamma(3))
print(torch.special.multigammaln(a.abs() + 2, 3), torch.mvlgamma(a.abs() + 2, 2).grad_fn.name())
(lg + dg + pg).sum().backward()
print(a.grad)
(g,) = torch.autograd.grad(torch.digamma(a).sum(), a, create_graph=True)
print(g, g.grad_fn.name())
print(torch.digamma(torch.tensor([0.0, -0.0, -2.0, float("inf")])))
print(torch.lgamma(torch.tensor([0.0, -1.0, float("-inf"), 1e-8])))
print(torch.digamma(torch.tensor([0.3, 1.7, -2.5], dtype=torch.float64)))
b = torch.tensor([0.5, 2.0])
b.lgamma_()
print(b, torch.tensor([1, 2, 3]).lgamma())
try:
    torch.polygamma(-1, a)
except RuntimeError as e:
    print(e)
try:
    torch.mvlgamma(a, 0)
except RuntimeError as e:
    print(e)
