# title: Your own exp as an autograd.Function
# autograd.Function lets you define a graph node with your own forward and backward, e.g. to
# swap in a better exp implementation. backward turns grad_output into the gradient of each
# forward input (one return value per input after ctx).
import torch


class _MyExp(torch.autograd.Function):
     @staticmethod
     def forward(ctx, input: torch.Tensor):
          output = input.exp() # if you have a better exp implementation, use it here
          ctx.save_for_backward(output)
          return output

     @staticmethod
     def backward(ctx, grad_output: torch.Tensor):
          output, = ctx.saved_tensors
          return grad_output * output

def my_exp(input: torch.Tensor):
     return _MyExp.apply(input)


x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = my_exp(x)
print(y)
y.sum().backward()
print(x.grad)
