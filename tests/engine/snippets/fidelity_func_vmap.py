# vmap with in_dims / out_dims tuples, pytrees, nesting, over grad, and its errors.
import torch
from torch.func import grad, vmap

a = torch.arange(6.0).reshape(2, 3)
b = torch.tensor([1.0, -1.0, 2.0])
print(vmap(lambda x: x * 2)(a))
print(vmap(lambda x, y: x * y, in_dims=(0, None))(a, b))
print(vmap(lambda x, y: x * y, in_dims=(1, 0))(a, b))
print(vmap(lambda x: (x, x.sum()), out_dims=(1, 0))(a))
print(vmap(lambda d: d["p"] + d["q"])({"p": a, "q": a * 10}))
print(vmap(vmap(lambda x: x.sum()))(a))
print(vmap(grad(lambda x: (x**2).sum()))(a))
print(vmap(torch.dot)(a, a + 1))
for f in [
    lambda: vmap(lambda x, y: x * y)(a, torch.ones(3, 3)),
    lambda: vmap(lambda x: x)(3.0),
    lambda: vmap(lambda x: x, in_dims=1)(torch.ones(3)),
]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
vmap(lambda x, y: x + y, in_dims=(0, 0))(a, torch.ones(3, 2))
