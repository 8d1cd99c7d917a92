import torch

t = torch.rand(4, 4)
b = t.view(2, 8)
print(t.data_ptr() == b.data_ptr())
b[0][0] = 3.14
print(t[0][0])
base = torch.tensor([[0, 1], [2, 3]])
print(base.is_contiguous())
t = base.transpose(0, 1)
print(t.is_contiguous())
c = t.contiguous()
print(c.is_contiguous(), c)
