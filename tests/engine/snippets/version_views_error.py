import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
v = y[:2]
w = v.exp()
v.mul_(2)
print(y.grad_fn.name(), v.grad_fn.name())
try:
    w.sum().backward()
except RuntimeError as err:
    print("RuntimeError", err)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.sigmoid()
c = b.view(2)
c.add_(1)
print(b.grad_fn.name())
b.sum().backward()
