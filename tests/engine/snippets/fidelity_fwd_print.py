# How dual tensors print: tangent suffix, with grad_fn / requires_grad, 0-dim tangents.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
p = torch.arange(6.0).reshape(2, 3)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1.0, 0.0, -1.0]))
    print(d)
    print(d.grad_fn.name(), d.is_leaf, d.requires_grad)
    e = fwAD.make_dual(p, torch.ones(2, 3))
    print(e)
    print(e.sum())
    print(e[1])
    print(e[0, 2])
    y = d * d
    print(y)
    print(fwAD.unpack_dual(y).tangent.grad_fn.name())
    print(fwAD.unpack_dual(d))
    print(fwAD.unpack_dual(d).primal.grad_fn.name())
    z = e.exp() / 3
    print(z.requires_grad, z.grad_fn, z.is_leaf)
    print(z)
    with torch.no_grad():
        print(e * 2)
    print(e.max(1))
    print(e.argmax(), e > 2)
    a, b = e.split(1)
    print(a, b)
print(e)
