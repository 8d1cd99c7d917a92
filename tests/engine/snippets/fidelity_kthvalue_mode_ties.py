import torch

x = torch.tensor(
    [[1.0, 2.0, 2.0, 1.0], [2.0, 2.0, 1.0, 1.0], [1.0, 1.0, 1.0, 2.0], [2.0, 2.0, 2.0, 2.0]]
)
print(torch.kthvalue(x, 2, 0))
print(torch.kthvalue(x, 3, 1, keepdim=True))
print(x.mode(0))
print(x.mode())

x = torch.tensor([3, 1, 3, 1, 2, 3, 1, 2, 1, 3, 0, 0, 3, 1, 1, 3, 3, 1, 2, 2])
print(x.mode(), x.kthvalue(10))
