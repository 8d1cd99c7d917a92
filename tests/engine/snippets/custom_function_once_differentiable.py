import torch
from torch.autograd.function import once_differentiable


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        print("in backward:", torch.is_grad_enabled(), grad.requires_grad)
        return 2 * x * grad


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Square.apply(x)
(g,) = torch.autograd.grad(y.sum(), x)
print(g, g.requires_grad, g.grad_fn)
y = Square.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
y = Square.apply(x)
go = torch.ones(2, requires_grad=True)
(g,) = torch.autograd.grad(y, x, grad_outputs=go, create_graph=True)
print(g.requires_grad, g.grad_fn.name(), [(type(f).__name__, n) for f, n in g.grad_fn.next_functions])
try:
    torch.autograd.grad(g.sum(), go)
except RuntimeError as e:
    print(e)
try:
    g.sum().backward()
except RuntimeError as e:
    print(e)
print(go.grad)
h = torch.tensor([3.0], requires_grad=True)
z = Square.apply(h * 1)
(gz,) = torch.autograd.grad(z, h, grad_outputs=go[:1] * 2, create_graph=True)
print(gz, type(gz.grad_fn).__name__)
(g,) = torch.autograd.grad(Square.apply(x), x, grad_outputs=go, create_graph=True)
print(repr(g.grad_fn).split(" ")[0], type(g.grad_fn).__name__, g)
print(g.grad_fn.next_functions[0][0].variable, g.is_leaf)
