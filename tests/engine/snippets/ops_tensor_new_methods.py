import torch

x = torch.tensor([1.0, 2.0], dtype=torch.float64)
print(
    x.new_tensor([3, 4]),
    x.new_zeros(2, 2),
    x.new_ones(1),
    x.new_full((2,), 7),
    x.new_empty(0).shape,
)
print(torch.tensor([1, 2]).new_tensor([1.5]), torch.tensor([1, 2]).new_zeros(1).dtype)
print(torch.zeros_like(x), torch.ones_like(x, dtype=torch.int32), torch.full_like(x, 3))
y = x.new_tensor(torch.tensor([5.0]))
print(y)
