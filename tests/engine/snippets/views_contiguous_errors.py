import torch

a = torch.ones(2, 3)
print(a.view(3, 2).shape, a.t().is_contiguous(), a.t().contiguous().is_contiguous())
y = torch.arange(6).reshape(2, 3).t()
print(y.reshape(-1), y.contiguous().view(6), y.flatten(), y.stride(), y.contiguous().stride())
try:
    y.view(6)
except RuntimeError as e:
    print(e)
try:
    a.view(4)
except RuntimeError as e:
    print(e)
try:
    torch.arange(6).view(4, -1)
except RuntimeError as e:
    print(e)
try:
    torch.arange(6).view(-1, -1)
except RuntimeError as e:
    print(e)
print(torch.arange(6).view(2, -1), torch.arange(6).reshape(3, -1).shape)
x = torch.arange(4.0)
v = x.view(2, 2)
v[0, 0] = 100
print(x, v._base is x, x.data_ptr() == v.data_ptr())
