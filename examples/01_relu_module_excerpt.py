# title: nn.ReLU is a Module wrapping the functional relu
# From the notes on PyTorch's autograd source: modules such as nn.ReLU wrap the functional
# form (F.relu), which in turn calls a builtin implemented in C++. The excerpt needs its
# imports to run on its own.
import torch
from torch import Tensor
from torch.nn import Module
from torch.nn import functional as F


class ReLU(Module):
    __constants__ = ['inplace']
    inplace: bool

    def __init__(self, inplace: bool = False):
        super(ReLU, self).__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)


# Use the module: relu passes the gradient where the input is positive (and 0 at 0).
relu = ReLU()
x = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)
y = relu(x)
print(y)
y.sum().backward()
print(x.grad)
