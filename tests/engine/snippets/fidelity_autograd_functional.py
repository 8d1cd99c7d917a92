import torch
from torch.autograd.functional import hessian, jacobian, vjp, jvp, hvp


def f(x):
    return torch.stack([x[0] * x[1], x[0] ** 2 + torch.sin(x[1])])


x = torch.tensor([1.0, 2.0])
print(jacobian(f, x))
print(hessian(lambda t: (t ** 3).sum(), x))
print(vjp(f, x, torch.tensor([1.0, 1.0])))
print(jvp(f, x, torch.tensor([1.0, 0.0])))
print(hvp(lambda t: (t ** 3).sum(), x, torch.ones(2)))
print(jacobian(lambda a, b: a * b, (torch.ones(2), torch.tensor([2.0, 3.0]))))
inp = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(torch.sigmoid, (inp,)), torch.autograd.gradgradcheck(torch.tanh, (inp,)))
