import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x)
y = x * 2
print(y)
print(x.sum())
print(x.exp())
z = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(z + 1)
print(torch.tensor(2.0, requires_grad=True))
print(x.detach())
w = torch.arange(40.0, requires_grad=True)
print(w * 1.5)
