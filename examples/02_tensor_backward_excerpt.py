# title: Tensor.backward calls torch.autograd.backward
# Excerpt from PyTorch's source: Tensor.backward forwards its arguments to
# torch.autograd.backward. In PyTorch the base class is the C++ `torch._C._TensorBase`; here
# the excerpt subclasses torch.Tensor so that it runs, and is called on an ordinary tensor.
import torch


class Tensor(torch.Tensor):

    def backward(self, gradient=None, retain_graph=None, create_graph=False):
        relevant_args = (self,)
        ...
        torch.autograd.backward(self, gradient, retain_graph, create_graph)
        # gradient: same shape as the tensor; the intermediate result of the chain rule. May be
        #   omitted for a scalar (defaults to 1).
        # retain_graph: the intermediate buffers of backward are freed; to backpropagate several
        #   times (gradients accumulate), pass retain_graph=True to keep them.
        # create_graph: also build a graph for the backward pass itself, e.g. for second
        #   derivatives.


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
Tensor.backward(y, retain_graph=True)
print(x.grad)
Tensor.backward(y)  # a second backward through the kept graph: gradients accumulate
print(x.grad)
