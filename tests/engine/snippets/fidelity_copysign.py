import torch

a = torch.tensor([1.0, -2.0, 0.0], requires_grad=True)
b = torch.tensor([0.5, 3.0, -1.0], requires_grad=True)
r = torch.logaddexp2(a, b)
print(r, r.grad_fn.name())
r.sum().backward()
print(a.grad, b.grad)
a.grad = None
b.grad = None
c = torch.copysign(a, b)
print(c, c.grad_fn.name())
c.sum().backward()
print(a.grad, b.grad)
d = a.copysign(-1)
print(d, d.grad_fn.name())
x = torch.tensor([1.0, -3.0])
x.copysign_(torch.tensor([-1.0, 1.0]))
print(x, torch.copysign(torch.tensor([2, -3]), 1.0))
