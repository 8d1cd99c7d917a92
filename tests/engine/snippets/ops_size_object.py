import torch

s = torch.Size([2, 3])
print(s, isinstance(s, tuple), s + torch.Size([4]), s + (4,), s.numel(), len(s))
print(s == (2, 3), s == [2, 3], s[0], s[-1], s[1:], tuple(s), list(s))
print(torch.zeros(2, 3, 4).shape[1:], torch.zeros(0, 3).shape, torch.tensor(1.0).shape)
print(torch.zeros(s).shape, torch.ones(*s).shape, torch.zeros(2, 3).view(s[::-1]).shape)
print(torch.Size([]), torch.Size([]).numel(), torch.Size((5,)))
print(torch.zeros(3).unsqueeze(-1).shape, torch.zeros(3).unsqueeze(0).shape)
print(torch.ones(3)[None, :, None].shape, torch.zeros(2, 1, 3).squeeze().shape)
print(torch.zeros(2, 1, 3).squeeze(1).shape, torch.zeros(2, 1, 3).squeeze(0).shape)
