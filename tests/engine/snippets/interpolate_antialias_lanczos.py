import torch
import torch.nn.functional as F

# antialias widens the filter by the scale when downsampling (PIL's resampling); lanczos is a
# Lanczos-3 filter that exists only antialiased, on 4-D input
torch.manual_seed(0)
x = torch.rand(1, 2, 5, 6, requires_grad=True)
for kw in (
    dict(size=(3, 2), mode="lanczos"),
    dict(scale_factor=2, mode="lanczos"),
    dict(size=(9, 4), mode="lanczos"),
    dict(scale_factor=0.7, mode="lanczos"),
    dict(size=(2, 3), mode="bilinear"),
    dict(scale_factor=1.5, mode="bilinear"),
    dict(size=(3, 4), mode="bilinear", align_corners=True),
    dict(size=(2, 3), mode="bicubic"),
    dict(size=(7, 11), mode="bicubic"),
):
    y = F.interpolate(x, antialias=True, **kw)
    print(kw, tuple(y.shape), y.grad_fn.name())
    print(y[0, 1])
y = F.interpolate(x, size=(3, 8), mode="lanczos", antialias=True)
(y * torch.arange(24.0).reshape(3, 8)).sum().backward()
print(x.grad)
x.grad = None
y = F.interpolate(x, size=(4, 3), mode="bicubic", antialias=True)
(y * torch.arange(12.0).reshape(4, 3)).sum().backward()
print(x.grad)
xd = torch.rand(1, 1, 6, 6, dtype=torch.float64, requires_grad=True)
for mode in ("lanczos", "bilinear", "bicubic"):
    print(mode, torch.autograd.gradcheck(lambda t: F.interpolate(t, size=(4, 9), mode=mode, antialias=True), (xd,)))

x3, x5, x2 = torch.rand(1, 1, 4), torch.rand(1, 1, 2, 2, 2), torch.rand(2, 4)
attempts = {
    "lanczos without antialias": lambda: F.interpolate(x, scale_factor=2, mode="lanczos"),
    "lanczos, align_corners": lambda: F.interpolate(x, scale_factor=2, mode="lanczos", antialias=True, align_corners=True),
    "lanczos, 3-D": lambda: F.interpolate(x3, scale_factor=2, mode="lanczos"),
    "lanczos, 3-D, antialias": lambda: F.interpolate(x3, scale_factor=2, mode="lanczos", antialias=True),
    "unknown mode": lambda: F.interpolate(x, scale_factor=2, mode="foo"),
    "nearest, antialias": lambda: F.interpolate(x, scale_factor=2, antialias=True),
    "trilinear, antialias": lambda: F.interpolate(x5, scale_factor=2, mode="trilinear", antialias=True),
    "bicubic, 3-D": lambda: F.interpolate(x3, scale_factor=2, mode="bicubic"),
    "linear, 4-D": lambda: F.interpolate(x, scale_factor=2, mode="linear"),
    "linear, 2-D": lambda: F.interpolate(x2, scale_factor=2, mode="linear"),
    "bilinear, no size": lambda: F.interpolate(x3, mode="bilinear"),
    "float size": lambda: F.interpolate(x, size=(2.0, 3)),
    "short size": lambda: F.interpolate(x, size=(2,)),
    "long scale": lambda: F.interpolate(x, scale_factor=(2, 2, 2)),
    "recompute with size": lambda: F.interpolate(x, size=(2, 3), recompute_scale_factor=True),
    "area, align_corners": lambda: F.interpolate(x, size=3, mode="area", align_corners=False),
}
for name, attempt in attempts.items():
    try:
        print(name, attempt().shape)
    except (ValueError, TypeError, NotImplementedError) as err:
        print(name, type(err).__name__, err)
print(F.interpolate(x, size=(torch.tensor(2), 3)).shape, F.interpolate(x, scale_factor=0.5, mode="area").shape)
