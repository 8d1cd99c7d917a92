import torch
import torch.nn.functional as F

t4d = torch.arange(8.0).view(1, 2, 2, 2).requires_grad_()
p1d = (1, 1)
out = F.pad(t4d, p1d, "constant", 0)
print(out.size(), out.grad_fn.name())
p2d = (1, 1, 2, 2)
print(F.pad(t4d, p2d, "constant", 0).size())
t = torch.arange(6.0).view(1, 1, 6).requires_grad_()
for mode in ["reflect", "replicate", "circular"]:
    y = F.pad(t, (2, 3), mode=mode)
    print(mode, y, y.grad_fn.name())
    y.pow(2).sum().backward()
    print(t.grad)
    t.grad = None
print(F.pad(t, (-1, 2)))
try:
    F.pad(t, (6, 0), mode="reflect")
except Exception as e:
    print(type(e).__name__, e)
try:
    F.pad(torch.ones(3), (1, 1), mode="reflect")
except Exception as e:
    print(type(e).__name__, e)
try:
    F.pad(t, (1,))
except Exception as e:
    print(type(e).__name__, e)
print(F.pad(torch.ones(2, 2, dtype=torch.long), (1, 0), value=7))
print(F.pad(t4d, (1, 1, 1, 1), mode="reflect")[0, 0])
for shp, pad in [((1, 1, 6), (0, 6)), ((1, 2, 3, 4), (1, 1, 3, 0)), ((1, 2, 3, 4), (4, 0, 0, 0)), ((2, 3), (3, 0))]:
    try:
        F.pad(torch.ones(shp), pad, mode="reflect")
    except Exception as e:
        print(e)
