import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 100)
y.retain_grad()
(y * 1).sum().backward()
print(y.grad, x.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
b.retain_grad()
b.register_hook(lambda g: g * 100)
(b * 1).sum().backward()
print(b.grad, a.grad)
