import torch

x = torch.arange(6.0, requires_grad=True)
y = x.view(2, 3)
z = y.t()
print(y.grad_fn.name(), z.grad_fn.name())
print(z.is_contiguous(), z.shape)
w = x.reshape(3, 2)
print(w.grad_fn.name())
u = y.unsqueeze(0)
print(u.shape, u.grad_fn.name())
(z * torch.arange(6.0).reshape(3, 2)).sum().backward()
print(x.grad)
print(y._base is x, y.is_leaf)
