import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 2).sum().backward()
g = x.grad
(x * 2).sum().backward()
print(g is x.grad, g)
x.grad.zero_()
print(x.grad, x.grad._version)
x.grad.add_(torch.ones(2))
print(x.grad)
x.grad = torch.tensor([5.0, 5.0])
(x * 2).sum().backward()
print(x.grad)
x.grad.requires_grad_()
(x * 2).sum().backward()
print(x.grad)
