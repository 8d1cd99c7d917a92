import torch

x = torch.tensor(2.0, requires_grad=True)
y = x**3
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print(dy)
(d2y,) = torch.autograd.grad(dy, x, create_graph=True)
print(d2y)
(d3y,) = torch.autograd.grad(d2y, x)
print(d3y)
t = torch.tensor([0.5, 1.0], requires_grad=True)
s = (t.sin() * t).sum()
(g,) = torch.autograd.grad(s, t, create_graph=True)
print(g)
(h,) = torch.autograd.grad(g.sum(), t)
print(h)
e = torch.tensor(1.0, requires_grad=True)
f = e.exp() * e
(ge,) = torch.autograd.grad(f, e, create_graph=True)
ge.backward()
print(ge, e.grad)
