import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(x * x).sum().backward()
print(x.grad)
(x * 3).sum().backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
x.grad = None
(x**3).sum().backward()
print(x.grad)
g = x.grad
(x * 1).sum().backward()
print(g is x.grad, x.grad)
