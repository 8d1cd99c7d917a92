import torch
from torch.autograd.function import once_differentiable


class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


x = torch.tensor([3.0, -1.0], requires_grad=True)
y = Square.apply(x)
print(y, y.grad_fn)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * grad


z = Cube.apply(x)
(gz,) = torch.autograd.grad(z.sum(), x, create_graph=True)
print(gz, gz.requires_grad, gz.grad_fn)
try:
    gz.sum().backward()
except RuntimeError as e:
    print(e)
print(torch.autograd.gradcheck(Square.apply, (torch.tensor([1.5, 2.0], dtype=torch.double, requires_grad=True),)))
