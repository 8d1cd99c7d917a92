import math

import torch

x = torch.tensor([0.0, math.pi / 6, math.pi / 4, math.pi / 2])
print(x.sin(), x.cos(), torch.tan(x[:3]), x.sinh(), x.cosh(), x.tanh())
y = torch.tensor([-0.5, 0.0, 0.5])
print(y.asin(), y.acos(), y.atan(), y.asinh(), y.atanh(), torch.arcsin(y), torch.arctan(y))
print(
    torch.acosh(torch.tensor([1.0, 2.0])),
    torch.atan2(torch.tensor([1.0, -1.0]), torch.tensor([-1.0, -1.0])),
)
print(
    torch.deg2rad(torch.tensor([180.0, 90.0])),
    torch.rad2deg(torch.tensor([math.pi])),
    torch.hypot(torch.tensor([3.0]), torch.tensor([4.0])),
)
w = torch.tensor([0.25, 0.5], requires_grad=True)
(w.asin() + w.acos() + w.atan() + w.sinh()).sum().backward()
print(w.grad)
