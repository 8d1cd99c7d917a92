import torch

x = torch.ones(3)
print(x._version)
x.add_(1)
x.mul_(2)
print(x._version)
x[0] = 5
print(x._version)
y = x.view(3)
y.add_(1)
print(x._version, y._version)
d = x.detach()
d.add_(1)
print(x._version)
x.data.add_(1)
print(x._version)
