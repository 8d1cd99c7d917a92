import torch
from torch.autograd import Function, gradcheck


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

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


linear = LinearFunction.apply
inp = (
    torch.arange(20, dtype=torch.double).reshape(4, 5).div(7).requires_grad_(),
    torch.arange(15, dtype=torch.double).reshape(3, 5).cos().requires_grad_(),
)
test = gradcheck(linear, inp, eps=1e-6, atol=1e-4)
print(test)
out = linear(*inp)
print(out.grad_fn, type(out.grad_fn).__name__)
print(out.grad_fn.name())


class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MulConstant.apply(x, 3.0)
y.sum().backward()
print(y, x.grad)


class LinearModule(torch.nn.Module):
    def __init__(self, input_features, output_features):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(output_features, input_features))
        self.bias = torch.nn.Parameter(torch.zeros(output_features))

    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        return "input_features={}, output_features={}, bias={}".format(2, 3, self.bias is not None)


m = LinearModule(2, 3)
print(m)
o = m(torch.tensor([[1.0, 2.0]]))
o.sum().backward()
print(o, m.weight.grad, m.bias.grad)
