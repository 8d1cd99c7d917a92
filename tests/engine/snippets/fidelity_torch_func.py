import warnings

import torch

warnings.filterwarnings("ignore", category=DeprecationWarning)
from torch.func import functional_call, grad, grad_and_value, hessian, jacrev, vmap

x = torch.tensor([1.0, 2.0])
print(grad(lambda t: (t ** 3).sum())(x))
print(grad(grad(lambda t: t ** 3))(torch.tensor(2.0)))
print(grad_and_value(lambda t: (t ** 2).sum())(x))
print(grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x + 1))
print(grad(lambda t: ((t ** 2).sum(), t.mean()), has_aux=True)(x))
try:
    grad(lambda t: t ** 2)(x)
except RuntimeError as e:
    print(e)
print(vmap(lambda r: r.sum())(torch.arange(6.0).reshape(2, 3)))
print(vmap(torch.dot)(torch.ones(3, 2), torch.arange(6.0).reshape(3, 2)))
print(vmap(lambda a, b: a * b, in_dims=(0, None))(torch.ones(3, 2), torch.tensor([2.0, 3.0])))
print(torch.vmap(lambda r: r * 2)(torch.ones(2, 2)))
print(jacrev(torch.sin)(x), hessian(lambda t: (t ** 3).sum())(x))
torch.manual_seed(0)
m = torch.nn.Linear(2, 1)
params = {k: torch.ones_like(v) for k, v in m.named_parameters()}
print(functional_call(m, params, (x,)))
print(m(x))
y = x.clone().requires_grad_()
g = grad(lambda t: (t ** 3).sum())(y)
print(g, g.requires_grad)
g.sum().backward()
print(y.grad)
