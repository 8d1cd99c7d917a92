import torch
import torch.nn.functional as F

# F.interpolate's backward is linear in its gradient: under create_graph it is one
# Upsample<Mode>BackwardBackward0 node over grad_output (with its saved sizes and scales),
# whose own backward is the interpolation again
torch.manual_seed(0)
x = torch.randn(1, 2, 3, 4, dtype=torch.float64, requires_grad=True)
x3 = torch.randn(1, 2, 3, 2, 2, dtype=torch.float64, requires_grad=True)
x1 = torch.randn(1, 2, 5, dtype=torch.float64, requires_grad=True)
for name, inp, kw in [
    ("nearest", x, dict(scale_factor=2, mode="nearest")),
    ("nearest_exact", x, dict(size=(5, 7), mode="nearest-exact")),
    ("bilinear", x, dict(scale_factor=2, mode="bilinear")),
    ("bilinear_ac", x, dict(size=(7, 3), mode="bilinear", align_corners=True)),
    ("bicubic", x, dict(size=(5, 6), mode="bicubic")),
    ("bilinear_aa", x, dict(size=(2, 3), mode="bilinear", antialias=True)),
    ("linear", x1, dict(scale_factor=1.5, mode="linear")),
    ("trilinear", x3, dict(scale_factor=2, mode="trilinear")),
    ("nearest3d", x3, dict(scale_factor=2, mode="nearest")),
]:
    y = F.interpolate(inp, **kw)
    (g,) = torch.autograd.grad((y * y.detach().cos()).pow(2).sum(), inp, create_graph=True)
    fn = g.grad_fn
    saved = sorted(a for a in dir(fn) if a.startswith("_saved_"))
    print(name, fn.name(), [n and n.name() for n, _ in fn.next_functions], saved)
    print("  ", [getattr(fn, a) for a in saved])
    (h,) = torch.autograd.grad(g.pow(2).sum(), inp, create_graph=True)
    print("  ", h.grad_fn.name(), h.flatten()[:4])
    (k,) = torch.autograd.grad(h.pow(2).sum(), inp)
    print("  ", k.flatten()[:4])
