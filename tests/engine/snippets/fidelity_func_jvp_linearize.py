# torch.func.jvp / linearize / jacfwd / hvp (jvp of grad), with PyTorch's errors.
import torch
from torch.func import grad, jacfwd, jvp


def fn(x, y):
    return x**2 + y**2


primal0 = torch.tensor([1.0, 2.0])
tangent0 = torch.tensor([0.5, -1.0])
primal1 = torch.tensor([3.0, 0.5])
tangent1 = torch.tensor([1.0, 1.0])
print(jvp(fn, (primal0, primal1), (tangent0, tangent1)))
print(jvp(lambda x: (x.sin(), x.exp()), (primal0,), (tangent0,)))
print(jvp(lambda x: (x.tanh(), x * 2), (primal0,), (tangent0,), has_aux=True))


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def f(x):
    return x.sin().sum()


print(hvp(f, (primal0,), (tangent0,)))
out, jvp_fn = jvp(lambda x: x.exp() * 2, (primal0,), (tangent0,))
print(out, jvp_fn)
print(jacfwd(lambda x, y: x * y.sum(), argnums=(0, 1))(primal0, primal1))
print(jacfwd(lambda x: {"a": x.cos(), "b": x.sum()})(primal0))
for g in [
    lambda: jvp(fn, primal0, tangent0),
    lambda: jvp(fn, (primal0, primal1), (tangent0,)),
    lambda: jvp(lambda x: x, (primal0,), (torch.ones(3),)),
]:
    try:
        g()
    except Exception as e:
        print(type(e).__name__, e)
jvp(lambda x: x.sum(), (primal0,), tangent0)
