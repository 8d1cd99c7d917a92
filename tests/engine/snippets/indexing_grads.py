import torch

x = torch.arange(6.0, requires_grad=True)
y = x[1:4]
print(y, y.grad_fn.name())
z = x[2]
print(z, z.grad_fn.name())
idx = torch.tensor([0, 0, 5])
g = x[idx]
print(g, g.grad_fn.name())
(y.sum() + z * 10 + g.sum()).backward()
print(x.grad)
