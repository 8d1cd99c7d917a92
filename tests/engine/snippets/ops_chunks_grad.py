import torch

x = torch.arange(6.0, requires_grad=True)
a, b, c = x.chunk(3)
(a * 1 + b * 2 + c * 3).sum().backward()
print(a.grad_fn, x.grad)
y = torch.arange(6.0).reshape(2, 3).requires_grad_()
r0, r1 = y.unbind(0)
(r0 * r1).sum().backward()
print(r0.grad_fn, y.grad)
