import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x**3 * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.save_for_backward(x)
        ctx.k = k

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * g * ctx.k, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x, 2.0)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
