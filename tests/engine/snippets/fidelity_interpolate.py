import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(6.0).reshape(1, 1, 2, 3).requires_grad_()
for kw in [dict(scale_factor=2), dict(size=(3, 4)), dict(scale_factor=2, mode="bilinear"),
           dict(size=(3, 5), mode="bilinear", align_corners=True), dict(scale_factor=1.5, mode="bilinear")]:
    y = F.interpolate(x, **kw)
    print(kw, y.grad_fn)
    print(y)
    y.pow(2).sum().backward()
    print(x.grad)
    x.grad = None
z = torch.arange(4.0).reshape(1, 1, 4).requires_grad_()
print(F.interpolate(z, scale_factor=2, mode="linear"), F.interpolate(z, size=3))
up = nn.Upsample(scale_factor=2, mode="nearest")
print(up, nn.Upsample(size=(2, 2), mode="bilinear", align_corners=False))
print(up(torch.ones(1, 2, 1, 1)).shape)
try:
    F.interpolate(x, scale_factor=2, align_corners=True)
except ValueError as e:
    print(e)
a = torch.tensor([-1.0, 0.5, 2.0])
F.relu_(a)
print(a, torch.relu_(torch.tensor([-3.0, 3.0])), torch.sigmoid_(torch.zeros(2)))
b = torch.tensor([-2.0, 2.0])
F.leaky_relu_(b, 0.1)
print(b, torch.pi, torch.e, torch.inf, torch.nan)
