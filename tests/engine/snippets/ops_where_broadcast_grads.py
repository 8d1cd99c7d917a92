import torch

x = torch.tensor([[1.0, -1.0], [2.0, -2.0]], requires_grad=True)
y = torch.tensor([10.0, 20.0], requires_grad=True)
z = torch.where(x > 0, x, y)
z.sum().backward()
print(z, x.grad, y.grad)
m = torch.tensor([[True], [False]])
print(torch.where(m, torch.tensor([1, 2]), torch.tensor([[3], [4]])))
