# torch.autograd.functional: jvp, hvp, vhp, jacobian/hessian with forward-mode strategies.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp


def f(x):
    return torch.stack([x[0] * x[1], x[1].sin(), x.exp().sum()])


def g(x):
    return (x**3).sum() + x.prod()


x = torch.tensor([0.5, 1.0])
print(jvp(f, x, torch.tensor([1.0, 0.0])))
print(hvp(g, x, torch.tensor([1.0, 1.0])))
print(vhp(g, x, torch.tensor([1.0, 1.0])))
print(jacobian(f, x))
print(jacobian(f, x, vectorize=True, strategy="forward-mode"))
print(hessian(g, x, vectorize=True, outer_jacobian_strategy="forward-mode"))
print(jacobian(lambda a, b: a * b, (x, x + 1), vectorize=True, strategy="forward-mode"))
try:
    jacobian(f, x, strategy="forward-mode")
except NotImplementedError as e:
    print(e)
jacobian(f, x, strategy="sideways")
