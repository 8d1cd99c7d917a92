import torch


class MulConst(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, y):
        ctx.k = k
        ctx.save_for_backward(x, y)
        print("needs", ctx.needs_input_grad)
        return x * k * y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        print("backward needs", ctx.needs_input_grad)
        return g * ctx.k * y, None, g * ctx.k * x


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
out = MulConst.apply(a, 2.0, b)
print(out)
out.sum().backward()
print(a.grad)
with torch.no_grad():
    print(MulConst.apply(a, 3.0, b).requires_grad)
