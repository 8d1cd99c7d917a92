import torch

x = torch.tensor([[[1.5, -2.25], [3.125, 4.0]], [[0.0, 1e-3], [100.0, -0.5]]])
print(x)
print(x[0], x[:, 0], x.sum(0))
print(torch.tensor([[1e-3, 1e3], [1.0, 2.0]]))
print(torch.tensor([[1, 10], [100, 1000]]), torch.tensor([[-1], [10]]))
print(torch.zeros(2, 2, 2, dtype=torch.int64))
print(torch.tensor([[True, False], [False, True]]))
print(torch.tensor([1.0, 2.0]).reshape(1, 1, 2), torch.ones(1, 1, 1))
