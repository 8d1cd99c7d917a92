import torch


class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = AddOneInplace.apply(b)
print(c is b, c, b._version)
print(c.grad_fn.name())
c.sum().backward()
print(a.grad)
