import torch
from torch.autograd import Function


class MulConst(Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.save_for_backward(x)
        print("needs", ctx.needs_input_grad)
        return x * k

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * ctx.k, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MulConst.apply(x, 3.0)
print(y, y.grad_fn, y.grad_fn.name())
print(type(y.grad_fn).__name__, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)


class AddOneInplace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.clone()
c = AddOneInplace.apply(b)
print(c, c is b, c.grad_fn)
c.sum().backward()
print(a.grad)


class Bad(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


try:
    Bad.apply(x).sum().backward()
except RuntimeError as e:
    print(e)
