import torch

a = torch.tensor([0.3, -0.7, 1.5, -2.5], requires_grad=True)
b = torch.tensor([1.2, 0.5, -0.4, 2.0], requires_grad=True)
for name in [
    "square",
    "erf",
    "erfc",
    "log1p",
    "expm1",
    "exp2",
    "sinh",
    "cosh",
    "atan",
    "asinh",
    "sinc",
    "deg2rad",
    "rad2deg",
]:
    y = getattr(torch, name)(a)
    (g,) = torch.autograd.grad(y.sum(), a)
    print(name, y, g)
for name in ["asin", "acos", "atanh", "logit"]:
    y = getattr(torch, name)(a / 3)
    print(name, y)
for name in ["log2", "log10", "acosh"]:
    print(name, getattr(torch, name)(a.abs() + 1))
for name in ["atan2", "hypot", "logaddexp", "fmax", "fmin"]:
    y = getattr(torch, name)(a, b)
    print(name, y, torch.autograd.grad(y.sum(), (a, b)))
print(torch.xlogy(torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 2.0, 3.0])))
print(
    torch.tan(torch.tensor([1, 2])),
    torch.square(torch.tensor([2, -3])),
    torch.float_power(torch.tensor([2, 3]), 2),
)
