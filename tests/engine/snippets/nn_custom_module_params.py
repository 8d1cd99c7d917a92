import torch
from torch import nn


class Affine(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))
        self.bias = nn.Parameter(torch.zeros(n))
        self.plain = torch.ones(n)

    def forward(self, x):
        return x * self.weight + self.bias

    def extra_repr(self):
        return f"n={self.weight.shape[0]}"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Affine(2)
        self.b = Affine(2)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


net = Net()
print(net)
print([n for n, p in net.named_parameters()])
print(net.state_dict())
x = torch.tensor([[1.0, -1.0]])
y = net(x)
print(y, y.grad_fn.name())
y.sum().backward()
print(net.a.weight.grad, net.b.bias.grad)
print(net.a.plain, "plain" in dict(net.named_buffers()))
print(sum(p.numel() for p in net.parameters()))
print(net.get_submodule("a"), net.get_parameter("b.weight"))
print(hasattr(net, "a"), isinstance(net.a, nn.Module))
try:
    net.missing
except AttributeError as e:
    print(e)
