# title: A custom autograd Function computing e^x
# Basic unit of a network: nn.Module; the computation itself is an autograd Function that
# defines forward and backward.
import torch
from torch.autograd import Function


class Exp(Function):                    # this layer computes e^x
    @staticmethod
    def forward(ctx, i):                # forward pass
        result = i.exp()
        ctx.save_for_backward(result)   # keep what backward needs; saved tensors come back in the
        # ctx.saved_tensors tuple. Only tensors can be saved this way; other values (ints, ...)
        # can simply be stored as attributes of ctx.
        return result

    @staticmethod
    def backward(ctx, grad_output):     # backward pass
        result, = ctx.saved_tensors     # the result saved in forward
        return grad_output * result     # compute and return the gradient


a = torch.tensor([1.], requires_grad=True)
result = Exp.apply(a)  # forward
result.backward()
print(a.grad)
