import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
z = y * 2
y.register_hook(lambda g: torch.ones_like(g))
z.sum().backward()
print(x.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * a
b.register_hook(lambda g: print("b", g))
h = b.register_hook(lambda g: g * 0)
h.remove()
h.remove()
b.sum().backward()
print(a.grad)
