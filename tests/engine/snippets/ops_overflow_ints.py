import torch

print(torch.tensor([1, 2], dtype=torch.int8) * 100)
print(torch.tensor([127], dtype=torch.int8) + 1)
print(torch.tensor([200], dtype=torch.uint8) + 100)
print(torch.tensor([2**62]) * 4, torch.tensor(2**31) * 2**31)
print(torch.tensor([300]).to(torch.uint8), torch.tensor([-1]).to(torch.uint8))
print(
    torch.tensor([1.7, -1.7]).int(),
    torch.tensor([1.7, -1.7]).long(),
    torch.tensor([0, 1, 2]).bool(),
)
print(torch.tensor([1, 2]) // torch.tensor([3, 1]), torch.tensor([1, 2]) / torch.tensor([0, 0]))
print(torch.tensor([3], dtype=torch.uint8) - 5, torch.tensor([-128], dtype=torch.int8).abs())
