# torch.func transforms give back the very tensor passed in when f returns an input unchanged
# (as value or aux), as PyTorch unwraps it; a view of it is a new tensor.
import torch
from torch.func import grad, grad_and_value, jacrev, jvp, vjp

t = torch.ones(2)
r = torch.ones(2, requires_grad=True)
a = grad(lambda x: (x.sum(), x), has_aux=True)(t)[1]
print(a is t, a)
a = grad(lambda x: (x.sum(), x), has_aux=True)(r)[1]
print(a is r, a)
a = grad(lambda x: (x.sum(), x.view(2)), has_aux=True)(r)[1]
print(a is r, a)
a = grad(lambda x: (x.sum(), x.detach()), has_aux=True)(r)[1]
print(a is r, a)
o, fn = vjp(lambda x: x, r)
print(o is r, o, fn(torch.ones(2)))
o, fn = vjp(lambda x, y: (y, x * y), t, r)
print(o[0] is r, o[1])
o, fn, aux = vjp(lambda x: (x * 2, x), t, has_aux=True)
print(aux is t, aux)
print(jacrev(lambda x: (x * 2, x), has_aux=True)(r)[1])
g, (v, aux) = grad_and_value(lambda x: (x.sum(), {"x": x, "y": x + 1}), has_aux=True)(r)
print(v, aux["x"] is r, aux["y"])
s = torch.tensor(3.0, requires_grad=True)
g, v = grad_and_value(lambda x: x)(s)
print(g, v is s, v)
print(jvp(lambda x: x, (r,), (torch.ones(2),)))
print(jvp(lambda x: x, (t,), (torch.ones(2),)))
