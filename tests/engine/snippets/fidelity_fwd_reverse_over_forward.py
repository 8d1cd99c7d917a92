# Backward through a tangent (reverse-over-forward) and a dual tensor that requires grad.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
v = torch.tensor([1.0, -1.0, 0.5])
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    y = (d.sin() * d).sum()
    primal, tangent = fwAD.unpack_dual(y)
    print(primal, tangent)
    print(tangent.grad_fn.name())
    tangent.backward()
print(x.grad)
x.grad = None
with fwAD.dual_level():
    y = (fwAD.make_dual(x, v) ** 3).sum()
    print(y)
    y.backward()
print(x.grad)
