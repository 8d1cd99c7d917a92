import torch

x = torch.arange(6.0).reshape(2, 3)
print(torch.full_like(x, 7), torch.full_like(x, 2.5, dtype=torch.int64))
print(torch.full((2, 2), 3), torch.full((2, 2), 3.0), torch.full((2,), True))
print(torch.full((2, 3), 3.141592))
print(torch.zeros_like(x, dtype=torch.bool), torch.ones_like(x).dtype)
print(torch.empty(2, 3).shape, torch.empty_like(x).dtype)
print(x.new_tensor([1, 2]), x.new_tensor([[1.0, 2.0]]).dtype)
print(x.new_zeros(2), x.new_ones((2, 1), dtype=torch.int64), x.new_full((2,), 5))
print(x.new_empty(3).shape)
print(torch.eye(3), torch.eye(2, 3, dtype=torch.int64))
print(torch.tensor([]), torch.tensor([]).shape, torch.tensor([[]]).shape, torch.tensor([]).dtype)
