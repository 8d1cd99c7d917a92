# The examples of the torch.autograd.functional docs (jacobian, hessian, vjp, jvp, vhp, hvp),
# with create_graph=True (grad_fn names of the results) and strict=True errors.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.manual_seed(0)


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


inputs = (torch.rand(2), torch.rand(2))
print(jacobian(exp_adder, inputs))


def pow_reducer(x):
    return x.pow(3).sum()


inputs = torch.rand(2, 2)
print(hessian(pow_reducer, inputs))
h = hessian(pow_reducer, inputs, create_graph=True)
print(h.shape, h.grad_fn is not None, h.requires_grad)


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


inputs = (torch.rand(2), torch.rand(2))
print(hessian(pow_adder_reducer, inputs))

inputs = torch.rand(4, 4)
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))
print(vjp(exp_reducer, inputs, v, create_graph=True))


def adder(x, y):
    return 2 * x + 3 * y


inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))

inputs = torch.rand(4, 4)
v = torch.ones(4, 4)
print(jvp(exp_reducer, inputs, v))
print(jvp(exp_reducer, inputs, v, create_graph=True))
inputs = (torch.rand(2), torch.rand(2))
v = (torch.ones(2), torch.ones(2))
print(jvp(adder, inputs, v))

inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(vhp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v, create_graph=True))
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(vhp(pow_adder_reducer, inputs, v))
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))
print(hvp(pow_reducer, inputs, v, create_graph=True))
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(hvp(pow_adder_reducer, inputs, v))

for fn, args in [
    (jacobian, (lambda x: torch.ones(2), torch.rand(2))),
    (vjp, (lambda x: x.detach() * 2, torch.rand(2), torch.ones(2))),
    (hessian, (lambda x: x.sum() * 0 + 1.0 * x.detach().sum(), torch.rand(2))),
]:
    try:
        print(fn(*args, strict=True))
    except RuntimeError as e:
        print(fn.__name__, "RuntimeError:", e)
print(jacobian(lambda x: torch.ones(2), torch.rand(2)))
print(jacobian(lambda x: x ** 2, torch.rand(3), vectorize=True))
vjp(exp_reducer, torch.rand(2, 2), torch.ones(3))
