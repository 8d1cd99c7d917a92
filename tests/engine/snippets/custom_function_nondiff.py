import torch


class SortPair(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        idx = torch.tensor([1, 0])
        out = x * 2
        ctx.mark_non_differentiable(idx)
        return out, idx

    @staticmethod
    def backward(ctx, g, gi):
        print("gi", gi)
        return g * 2


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 1, x * 2

    @staticmethod
    def backward(ctx, g1, g2):
        print("grads", g1, g2)
        return g1 if g2 is None else g1 + g2


a = torch.tensor([1.0, 2.0], requires_grad=True)
out, idx = SortPair.apply(a)
print(out.requires_grad, idx.requires_grad, idx.grad_fn)
out.sum().backward()
print(a.grad)
a.grad = None
u, v = Twice.apply(a)
u.sum().backward()
print(a.grad)
