# torch.func errors: vmap structures, non-tensor outputs, argnums, cotangent structure.
import torch
from torch.func import grad, vmap, jacrev, jacfwd, vjp, jvp, hessian
def tryit(f):
    try:
        r = f()
        print(r)
    except Exception as e:
        print(type(e).__name__, e)
a = torch.arange(6.0).reshape(2, 3)
tryit(lambda: vmap(lambda x: 3.0)(a))
tryit(lambda: vmap(lambda x: (x, 3))(a))
tryit(lambda: vmap(lambda x, y: x, in_dims=(0,))(a, a))
tryit(lambda: vmap(lambda x: x, in_dims=None)(a))
tryit(lambda: vmap(lambda x: x, in_dims="a")(a))
tryit(lambda: vmap(lambda x: x, out_dims=(0, 1))(a))
tryit(lambda: vmap(lambda x: x, out_dims=2)(a))
tryit(lambda: vmap(lambda d: d["a"], in_dims=({"a": 0},))({"a": a}))
tryit(lambda: vmap(lambda d: d["a"], in_dims=({"b": 0},))({"a": a}))
tryit(lambda: jacrev(lambda x: 3.0)(a))
tryit(lambda: jacfwd(lambda x: 3.0)(a))
tryit(lambda: grad(lambda x: x.sum())(torch.arange(3)))
tryit(lambda: jacrev(lambda x: x.sum())(torch.arange(3)))
tryit(lambda: vjp(lambda x: x.sum(), torch.arange(3.))[1](torch.tensor([1.0, 2.0])))
tryit(lambda: vjp(lambda x: x * 2, a)[1]((torch.ones(2, 3),)))
tryit(lambda: hessian(lambda x: x.sum())(a).shape)
tryit(lambda: jacrev(lambda x: x.sum(), argnums=2)(a))
tryit(lambda: jvp(lambda x: 3.0, (a,), (a,)))
tryit(lambda: vmap(lambda x: x.sum(0), in_dims=1, out_dims=-1)(a))
vmap(lambda x: 3.0)(a)
