import torch

print(torch.tensor([1, 2, 3], dtype=torch.int32), torch.tensor([1, 2], dtype=torch.uint8))
print(torch.tensor([True, False]), torch.tensor(True), torch.tensor([[True], [False]]))
print(torch.tensor([-5, 100000]), torch.tensor([[1, -1], [10, 200]]))
print(torch.tensor([1, 2], dtype=torch.int8), torch.tensor([1, 2], dtype=torch.int16))
print(torch.tensor(7), torch.tensor(-7, dtype=torch.int32), torch.tensor([], dtype=torch.int64))
print(torch.zeros(2, 0), torch.zeros(0, dtype=torch.bool), torch.ones(0, 3, dtype=torch.int32))
