# torch.func.grad over dicts of parameters (functional_call), argnums, has_aux and errors.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, grad_and_value

torch.manual_seed(0)
m = nn.Linear(3, 2)
params = {k: v.detach() for k, v in m.named_parameters()}
x = torch.arange(6.0).reshape(2, 3)
g = grad(lambda p, x: functional_call(m, p, (x,)).sum())(params, x)
print(sorted(g))
print(g["weight"], g["bias"])
a = torch.tensor([1.0, 2.0])
b = torch.tensor([3.0, -1.0])
print(grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(a, b))
print(grad(lambda a, b: (a * b).sum(), argnums=1)(a, b))
print(grad(lambda t: {"x": t[0] * t[1]}["x"].sum())((a, b)))
print(grad(lambda a: ((a**2).sum(), a * 3), has_aux=True)(a))
print(grad_and_value(lambda a: (a.sin() ** 2).sum())(a))
print(grad(grad(lambda s: s**3))(torch.tensor(2.0)))
for f in [
    lambda: grad(lambda a: a * 2)(a),
    lambda: grad(lambda a: (a * 2).sum(), argnums=1)(a),
    lambda: grad(lambda a, b: (a * b).sum(), argnums=[0, 1])(a, b),
    lambda: grad(lambda a: (a * 2).sum(), has_aux=True)(a),
    lambda: grad(lambda a: (a**2).sum())(3.0),
]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
grad(lambda a: ((a * 2).sum(), a))(a)
