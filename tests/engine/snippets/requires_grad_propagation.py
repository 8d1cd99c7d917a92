import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
c = a * b
print(a.requires_grad, b.requires_grad, c.requires_grad)
print(a.is_leaf, b.is_leaf, c.is_leaf)
print(a.grad_fn, b.grad_fn)
print(c.grad_fn.name())
d = b * 2
print(d.requires_grad, d.is_leaf, d.grad_fn)
e = a > 1
print(e.requires_grad, e.dtype)
print(torch.ones(2, requires_grad=True).is_leaf)
print((a + 0).detach().is_leaf)
print(torch.zeros(2).requires_grad_().requires_grad)
