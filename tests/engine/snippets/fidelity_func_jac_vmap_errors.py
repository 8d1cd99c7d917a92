import torch
from torch.func import jacrev, jacfwd, hessian, vmap, grad, vjp, jvp, linearize

def f(x, y):
    return x.sin() * y, (x * y).sum()

x = torch.tensor([0.5, 1.0]); y = torch.tensor([2.0, 3.0])
print(jacrev(f, argnums=(0, 1))(x, y))
print(jacfwd(f)(x, y))
print(jacrev(lambda d: d["a"] * 2)({"a": torch.ones(2)}))
print(jacrev(lambda x: (x ** 2, x.sum()), has_aux=True)(torch.ones(2)))
print(hessian(lambda x, y: (x * y ** 2).sum(), argnums=1)(x, y))
out, tangent = jvp(lambda x: x ** 3, (x,), (torch.ones(2),))
print(out, tangent)
out, jvp_fn = linearize(torch.sin, x)
print(jvp_fn(torch.ones(2)))
print(vmap(grad(lambda w, x: (w * x).sum()), in_dims=(None, 0))(torch.ones(3), torch.arange(6.0).view(2, 3)))
print(vmap(lambda x: x @ x.T, chunk_size=1)(torch.ones(2, 3, 2)).shape)
print(vmap(lambda x: (x, x.sum()), out_dims=(1, 0))(torch.ones(2, 3))[0].shape)
try:
    vmap(lambda x: x.item())(torch.ones(2))
except Exception as e:
    print(type(e).__name__, e)
try:
    vmap(lambda x, y: x + y)(torch.ones(2, 3), torch.ones(3, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    jacrev(lambda x: x.item())(torch.ones(1))
except Exception as e:
    print(type(e).__name__, e)
print(vmap(torch.trace)(torch.eye(3).expand(2, 3, 3)))
print(vmap(lambda x: torch.randn(()) * 0 + x, randomness="same")(torch.ones(2)))
try:
    vmap(lambda x: torch.randn(()) + x)(torch.ones(2))
except Exception as e:
    print(type(e).__name__, e)
