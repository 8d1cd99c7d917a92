import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x**2).sum()
(g,) = torch.autograd.grad(y, x)
print(g, x.grad)
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
out = a * b + b
print(torch.autograd.grad(out, [a, b]))
v = x * 2
print(torch.autograd.grad(v, x, grad_outputs=torch.tensor([1.0, 0.5, 0.25])))
print(torch.autograd.grad([v.sum(), (x * x).sum()], x))
r = torch.autograd.grad(x.sum(), x)
print(type(r).__name__, len(r), r[0].requires_grad)
