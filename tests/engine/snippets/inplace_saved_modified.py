import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.exp()
c = b.exp()
b.add_(1)
try:
    c.sum().backward()
except RuntimeError as err:
    print("RuntimeError", err)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 1
z = y * y
y.mul_(2)
print(y._version)
try:
    z.sum().backward()
except RuntimeError as err:
    print("RuntimeError", err)
