import torch


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


x = torch.tensor([0.0, 1.0], requires_grad=True)
y = Exp.apply(x)
print(y)
print(y.grad_fn)
print(y.grad_fn.name(), type(y.grad_fn).__name__)
print(y.grad_fn.next_functions[0][0].name())
y.sum().backward()
print(x.grad)
print(Exp.apply(torch.tensor([0.0])))
