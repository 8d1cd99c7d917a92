import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sin()
print(b._version)
c = b * 2
b.add_(1)
print(b._version, c._version)
d = a.exp()
d.mul_(2)
try:
    d.sum().backward()
except RuntimeError as e:
    print(e)
x = torch.ones(3)
v = x[1:]
v.add_(1)
print(x._version, v._version, x)
