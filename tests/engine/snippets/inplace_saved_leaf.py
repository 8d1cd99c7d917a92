import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
x = torch.tensor([3.0, 4.0])
y = w * x
x.add_(1)
print(x._version)
y.sum().backward()
