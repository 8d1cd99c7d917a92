import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(16.0).view(1, 4, 2, 2).requires_grad_()
y = F.pixel_shuffle(x, 2)
print(y, y.grad_fn, y.grad_fn._saved_upscale_factor)
z = F.pixel_unshuffle(y, 2)
print(z.grad_fn, torch.equal(z, x))
(y * torch.arange(16.0).view(1, 1, 4, 4)).sum().backward()
print(x.grad)
print(nn.PixelShuffle(3), nn.PixelUnshuffle(2), torch.pixel_shuffle(torch.ones(2, 9, 1, 1), 3).shape)
sr = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.PixelShuffle(2))
torch.manual_seed(0)
print(sr(torch.ones(1, 1, 2, 2)).shape)
try:
    F.pixel_shuffle(torch.ones(1, 3, 2, 2), 2)
except RuntimeError as e:
    print(e)
