import torch

t, f = torch.tensor([True, False]), torch.tensor([True, True])
print(t + f, t * 3, t.sum(), t.float().mean(), t & f, t | f, t ^ f, ~t)
print(torch.tensor([True]) + 1, torch.tensor([True]) + 1.5, t.int(), t.long().dtype)
print(
    torch.logical_and(t, f), torch.logical_or(t, f), torch.logical_xor(t, f), torch.logical_not(t)
)
print(t.any(), t.all(), f.all(), torch.any(t), torch.all(torch.tensor([])))
x = torch.tensor([3, 1, 2])
print((x > 1) & (x < 3), (x > 1).sum(), (x == 2).nonzero(), (x > 1).float())
try:
    print(t - f)
except RuntimeError as e:
    print(e)
try:
    print(-t)
except RuntimeError as e:
    print(e)
