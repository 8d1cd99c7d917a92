import torch

x = torch.tensor([1.5, 2.25], dtype=torch.float16)
print(x, x.dtype, x.element_size())
print(torch.tensor([1 / 3, 1e-5], dtype=torch.float16))
print(torch.tensor([65504.0], dtype=torch.float16) * 2)
print(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16).sum())
print(torch.tensor([0.1, 0.2]).half(), torch.tensor([0.1, 0.2]).half().float())
print(torch.tensor([1.0], dtype=torch.float16) + torch.tensor([1.0]))
print(torch.tensor([1.0], dtype=torch.float16) + 1.0, torch.tensor([1000.0]).half() * 100)
