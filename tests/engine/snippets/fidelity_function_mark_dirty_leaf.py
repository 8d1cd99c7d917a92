import torch
class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2

a = torch.tensor([1., 2.], requires_grad=True)
try:
    Dirty.apply(a)
except RuntimeError as e:
    print(e)
print(a, a._version, a.grad_fn)
with torch.no_grad():
    r = Dirty.apply(a)
    print(r, r.requires_grad, a._version)
b = torch.tensor([1., 2.])
r = Dirty.apply(b)
print(r.grad_fn, r.requires_grad)
c = a.clone()
r = Dirty.apply(c)
print(r is c, r.grad_fn, c._version)
r.sum().backward()
print(a.grad)
with torch.no_grad():
    r = Dirty.apply(a)
    print(r is a, r.requires_grad, r._base is a, r.is_leaf, r.grad_fn, a._version, r._version)
