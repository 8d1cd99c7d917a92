import torch

torch.set_printoptions(precision=6)
print(torch.tensor([1.0 / 3, 2.0 / 3]))
torch.set_printoptions(precision=2, linewidth=30)
print(torch.arange(10.0) / 3)
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
print(torch.arange(36.0).reshape(6, 6))
torch.set_printoptions(profile="full")
print(torch.arange(1005)[-3:])
torch.set_printoptions(profile="default")
print(torch.arange(1005.0).reshape(5, 201)[:, :2])
