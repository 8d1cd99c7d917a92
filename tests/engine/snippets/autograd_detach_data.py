import torch

x = torch.ones(3, requires_grad=True)
x.detach().zero_()
print(x)
x.data.fill_(2.0)
print(x, x.grad_fn, x.is_leaf)
y = x.detach()
print(y.requires_grad, y.is_leaf, y._version)
z = x * 3
d = z.detach()
print(d, d.grad_fn, z.grad_fn)
d.add_(1)
print(z)
w = x.detach().clone().requires_grad_(True)
print(w, w.is_leaf)
