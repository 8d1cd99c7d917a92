# title: A custom nn.Module calling torch.nn.functional
# A model is a composition of torch.nn.Modules; a custom Module nests sub-modules and defines
# forward. Here the computation is a function from torch.nn.functional, which creates a node
# in the graph with its forward and backward already defined.
import torch
import torch.nn.functional as F


class MyRelu(torch.nn.Module):
     def __init__(self):
          super(MyRelu, self).__init__()

     def forward(self, input: torch.Tensor):
          return F.relu(input)


m = MyRelu()
x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = m(x)
print(y)
(y * y).sum().backward()
print(x.grad)
