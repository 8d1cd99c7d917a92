import torch

torch.set_default_dtype(torch.float64)
x = torch.tensor([1.0, 2.0])
print(x, x.dtype)
print(torch.ones(2).dtype, torch.tensor(1).dtype)
print(torch.tensor([1.0], dtype=torch.float32))
print((torch.tensor([1, 2]) * 0.5).dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.5]).dtype)
