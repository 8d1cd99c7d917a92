import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.grad)
y = x * 0
y.sum().backward()
print(x.grad)
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = a * 2
c.backward()
print(a.grad, b.grad)
print(torch.autograd.grad(a * 3, a)[0])
