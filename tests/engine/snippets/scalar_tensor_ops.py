import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x + 2 * x + 1
print(y, y.shape, y.dim())
y.backward()
print(x.grad)
print(torch.tensor([1.0, 2.0]) + torch.tensor(1.0))
print(torch.arange(4) * 1.0)
print(torch.ones(2, 2, dtype=torch.float64).sum(), torch.ones(3).mean())
print(torch.zeros(2, 3).shape, torch.zeros(2, 3).size(1), torch.Size([2, 3]))
print(torch.ones(2).dtype, torch.arange(3).dtype, torch.tensor(1.0).dtype)
print(torch.get_default_dtype())
