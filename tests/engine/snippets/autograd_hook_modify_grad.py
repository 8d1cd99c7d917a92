import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
x.register_hook(lambda g: g.clamp(min=0))
(x * torch.tensor([1.0, 1.0, -1.0])).sum().backward()
print(x.grad)
y = torch.tensor([1.0, 2.0], requires_grad=True)
h = y * 2
h.register_hook(lambda g: print("grad at h", g))
h.register_hook(lambda g: g * 100)
(h**2).sum().backward()
print(y.grad)
