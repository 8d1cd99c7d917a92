import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
print(torch.randn(3), torch.rand(2), torch.randn(17).sum())
lin = nn.Linear(2, 2)
print(lin.weight, lin.weight.dtype)
x = torch.randn(4, 2)
print(lin(x).sum(), torch.tensor([1.0]).dtype)
print(torch.randint(0, 5, (3,)).dtype, torch.empty(3).uniform_(-1, 1))
torch.set_default_dtype(torch.float32)
print(torch.randn(2).dtype, torch.randn(18)[-3:])
print(torch.rand(3, dtype=torch.float16))
