import torch
from torch.autograd.function import once_differentiable


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


x = torch.tensor([1.0, 3.0], requires_grad=True)
y = Square.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad)
print(Square.apply(torch.tensor([2.0])))
