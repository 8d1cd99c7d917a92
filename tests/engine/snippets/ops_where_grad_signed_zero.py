# where's backward gives the branch not taken a plain 0, as PyTorch's formula does: no -0 from a negative gradient, no NaN from an infinite one
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
c = torch.tensor([True, False, True])
y = torch.where(c, a, b) * torch.tensor([-3.0, float("inf"), -1.0])
y.sum().backward()
print(a.grad, b.grad)
x = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(torch.where(x > 0, x**3, -(x**2)).sum(), x, create_graph=True)
print(g, torch.autograd.grad(g.sum(), x))
