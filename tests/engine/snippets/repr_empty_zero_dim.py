import torch

print(torch.tensor([]))
print(torch.zeros(0, 3))
print(torch.zeros(2, 0, dtype=torch.int64))
print(torch.tensor([], dtype=torch.float64))
print(torch.tensor(5.0))
print(torch.tensor(5))
print(torch.ones(1, 1, 1))
print(torch.zeros(3))
print(str(torch.tensor([1.0])))
print(f"{torch.tensor(2.5)}")
print(f"{torch.tensor(2.5):.3f}")
