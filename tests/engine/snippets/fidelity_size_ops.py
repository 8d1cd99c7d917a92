import torch

s = torch.Size([2, 3, 4])
print(s, len(s), s[0], s[-1], s[1:], s.numel())
print(s == (2, 3, 4), s + (5,), tuple(s), list(s), type(s[1:]))
print(torch.zeros(s).shape, torch.ones(*s).shape, torch.empty(s).size())
x = torch.zeros(2, 3)
print(x.shape == torch.Size([2, 3]), x.size() == (2, 3), x.shape[-1])
a, b = x.shape
print(a, b, x.view(x.size(0), -1).shape, x.new_zeros(x.shape).shape)
print(torch.Size([]), torch.zeros(()).shape, torch.tensor(5).shape)
print(str(s), repr(s), s.count(3), s.index(4))
print(torch.broadcast_shapes((2, 1), (1, 3)), torch.Size((1, 2)) * 2)
