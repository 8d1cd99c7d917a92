import torch

x = torch.arange(12.0, requires_grad=True)
print(x)
print(x * 1.5)
y = torch.arange(20, dtype=torch.float64).reshape(4, 5) / 3
print(y)
print(y.requires_grad_())
print(torch.arange(8, dtype=torch.int32).reshape(2, 4))
print(torch.ones(2, 2, dtype=torch.float64, requires_grad=True) * 2)
print(torch.tensor([[1e-5, 2.0], [3.0, 4.0]], requires_grad=True))
print(torch.tensor([-1.5, 0.0, 2.25]))
print(torch.tensor([[-1, 10], [100, -1000]]))
print(torch.tensor([1.0, -1.0]) * float("inf"))
print(torch.tensor([0.1234567, 12.5]))
