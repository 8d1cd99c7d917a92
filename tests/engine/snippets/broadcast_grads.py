import torch

a = torch.ones(2, 3, requires_grad=True)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
c = torch.tensor([[2.0], [3.0]], requires_grad=True)
s = torch.tensor(4.0, requires_grad=True)
out = (a * b + c) / s
print(out)
out.sum().backward()
print(a.grad)
print(b.grad)
print(c.grad)
print(s.grad)
