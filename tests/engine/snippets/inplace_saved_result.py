import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.mul_(2)
print(y.grad_fn.name(), y._version)
y.sum().backward()
