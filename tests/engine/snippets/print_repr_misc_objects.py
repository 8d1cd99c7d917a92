import torch

print(torch.float32, torch.int64, torch.bool, torch.device("cpu"), torch.Size([1, 2]))
print(repr(torch.tensor(1.5)), repr(torch.tensor([1.0])), str(torch.tensor([[1]])))
print([torch.tensor(1), torch.tensor([2.0])], (torch.tensor(True),), {"a": torch.tensor(0.5)})
print(torch.ones(2).max(0), torch.tensor([3.0, 1.0]).sort())
print(torch.tensor([1.0, 2.0]).requires_grad_(), torch.zeros(1, requires_grad=True).sum())
