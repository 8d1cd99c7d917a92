import torch
import torch.nn.functional as F

x = torch.arange(1.0, 5.0).view(1, 1, 2, 2).requires_grad_()
for mode in ["nearest", "bilinear", "bicubic", "nearest-exact", "area"]:
    kw = {} if mode in ("nearest", "area", "nearest-exact") else {"align_corners": False}
    y = F.interpolate(x, scale_factor=2, mode=mode, **kw)
    print(mode, y.grad_fn.name(), y[0, 0, 0])
y = F.interpolate(x, size=(3, 3), mode="bilinear", align_corners=True)
print(y)
y.sum().backward()
print(x.grad)
try:
    F.interpolate(x, scale_factor=2, mode="linear")
except Exception as e:
    print(type(e).__name__, e)
try:
    F.interpolate(x, size=3, scale_factor=2)
except Exception as e:
    print(type(e).__name__, e)
y = F.interpolate(x, scale_factor=1.5, mode="bilinear")
print(y.shape)
y = F.interpolate(x, scale_factor=1.5, mode="bilinear", recompute_scale_factor=True)
print(y[0, 0])
theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], requires_grad=True)
grid = F.affine_grid(theta, (1, 1, 2, 3), align_corners=False)
print(grid, grid.grad_fn.name())
inp = torch.arange(6.0).view(1, 1, 2, 3).requires_grad_()
out = F.grid_sample(inp, grid, align_corners=False)
print(out, out.grad_fn.name())
out.sum().backward()
print(inp.grad, theta.grad)
g = torch.tensor([[[[-1.5, 0.0], [0.3, 0.9]]]])
for pm in ["zeros", "border", "reflection"]:
    for m in ["bilinear", "nearest"]:
        print(pm, m, F.grid_sample(inp.detach(), g, mode=m, padding_mode=pm, align_corners=True))
torch.manual_seed(0)
x = torch.randn(1, 2, 3, 4, requires_grad=True)
for kw in [dict(scale_factor=2, align_corners=False), dict(scale_factor=2, align_corners=True),
           dict(size=(2, 3), align_corners=False), dict(size=(5, 7), align_corners=True), dict(scale_factor=(1.5, 0.5))]:
    y = F.interpolate(x, mode="bicubic", **kw)
    print(y.shape, y.grad_fn.name(), y[0, 1])
    g = torch.autograd.grad((y * torch.arange(y.numel()).view(y.shape)).sum(), x)[0]
    print(g[0, 0])
print(F.interpolate(x.double(), scale_factor=3, mode="bicubic")[0, 0, 0])
y = F.interpolate(x, scale_factor=2, mode="bicubic")
print(y.grad_fn._saved_align_corners, y.grad_fn._saved_output_size, y.grad_fn._saved_scales_h, y.grad_fn._saved_self_sym_sizes)
z = torch.arange(10.0).view(1, 1, 10).requires_grad_()
for m in ["nearest-exact", "area"]:
    for sz in [3, 4, 7, 15]:
        y = F.interpolate(z, size=sz, mode=m)
        print(m, sz, y, y.grad_fn.name())
v = torch.arange(8.0).view(1, 1, 2, 2, 2)
print(F.interpolate(v, scale_factor=1.5, mode="nearest-exact")[0, 0, 1])
print(F.interpolate(v, size=(1, 1, 3), mode="area"))
for m, shp in [("bicubic", (1, 1, 4)), ("bicubic", (1, 1, 2, 2, 2))]:
    try:
        F.interpolate(torch.ones(shp), scale_factor=2, mode=m)
    except Exception as e:
        print(type(e).__name__, e)
try:
    F.interpolate(z, scale_factor=2, mode="area", align_corners=True)
except Exception as e:
    print(type(e).__name__, e)
print(torch.nn.Upsample(scale_factor=2, mode="bicubic")(torch.arange(4.0).view(1, 1, 2, 2)))
