import torch
torch.manual_seed(0)
x = torch.empty(3, 4).geometric_(0.5)
print(x)
print(torch.empty(5, dtype=torch.int64).geometric_(p=0.2))
print(torch.empty(20, dtype=torch.float64).geometric_(0.9))
g = torch.Generator().manual_seed(3)
print(torch.zeros(4).geometric_(0.3, generator=g))
w = torch.zeros(3, requires_grad=True).clone()
w.geometric_(0.5)
print(w)
w.sum().backward()
try:
    torch.empty(2).geometric_(0)
except RuntimeError as e:
    print(e)
try:
    torch.empty(2).geometric_(1.5)
except RuntimeError as e:
    print(e)
print(torch.empty(2).geometric_(1))
