import torch

print(torch.tensor([1, 2, 3]))
print(torch.tensor([[1, -20, 300], [4, 5, 6]]))
print(torch.tensor([True, False, True]))
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([1, 2], dtype=torch.uint8))
print(torch.tensor(7))
print(torch.tensor(True))
print(torch.arange(5))
print(repr(torch.tensor([0, 0])))
