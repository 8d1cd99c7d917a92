import torch

x = torch.arange(12.0).reshape(3, 4).requires_grad_()
u = x.unfold(1, 2, 1)
print(u.shape, u.grad_fn)
u.sum().backward()
print(x.grad)
s = torch.arange(8.0, requires_grad=True)
patches = s.unfold(0, 4, 2)
(patches * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(patches, s.grad)
