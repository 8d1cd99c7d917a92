import torch

x = torch.ones(3, requires_grad=True)
y = x.sigmoid()
y.mul_(2)
try:
    y.sum().backward()
except RuntimeError as e:
    print(e)
x = torch.ones(3, requires_grad=True)
y = x.exp()
y.add_(1)
y.sum().backward()
print(x.grad)
try:
    x.add_(1)
except RuntimeError as e:
    print(e)
with torch.no_grad():
    x.add_(1)
print(x, x._version)
a = torch.ones(2, requires_grad=True)
b = a * 1
c = b**2
b.add_(1)
try:
    c.sum().backward()
except RuntimeError as e:
    print(e)
