import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x**3
seen = []
y.register_hook(lambda g: seen.append(g.requires_grad))
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, seen)
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)
z = torch.tensor(3.0, requires_grad=True)
f = z.exp() * z.sin()
(d1,) = torch.autograd.grad(f, z, create_graph=True)
(d2,) = torch.autograd.grad(d1, z, create_graph=True)
(d3,) = torch.autograd.grad(d2, z)
print(d1, d2, d3)
