import torch
from torch.autograd import Function


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


x = torch.arange(6.0).reshape(2, 3).requires_grad_()
w = torch.tensor([[0.1, 0.2, 0.3], [0.0, -1.0, 1.0]], requires_grad=True)
b = torch.tensor([0.5, -0.5], requires_grad=True)
out = LinearFunction.apply(x, w, b)
print(out, out.grad_fn.name())
out.sum().backward()
print(x.grad, w.grad, b.grad, sep="\n")
print(torch.autograd.gradcheck(LinearFunction.apply, (x.double(), w.double(), b.double())))
