import torch

x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = (x * torch.tensor([1.0, 2.0])).sum()
print(y.dtype, y)
y.backward()
print(x.grad, x.grad.dtype)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = (a.double() * 3).sum()
print(b)
b.backward()
print(a.grad)
i = torch.tensor([1, 2])
f = a * i
print(f, f.dtype)
f.sum().backward()
print(a.grad)
