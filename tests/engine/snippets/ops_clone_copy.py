import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.clone()
c = torch.empty(2).copy_(a)
print(b, b.grad_fn, c, c.grad_fn)
(b.sum() + c.sum()).backward()
print(a.grad)
d = torch.zeros(2, 2)
d.copy_(torch.tensor([1, 2]))
print(d)
e = torch.zeros(3)
e[:2].copy_(torch.tensor([9.0, 8.0]))
print(e)
