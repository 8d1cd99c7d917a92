import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 6 * 2 * 2, dtype=torch.float32).reshape(2, 6, 2, 2).div(10).requires_grad_()
cs = nn.ChannelShuffle(3)
print(cs)
y = cs(x)
print(y[0, :, 0, 0], y.grad_fn.name())
(y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
print(x.grad[0, :, 0, 0])
lrn = nn.LocalResponseNorm(3, alpha=0.1, beta=0.75, k=1.0)
print(lrn)
z = lrn(x)
print(z[1, :, 1, 1], z.grad_fn.name())
x.grad = None
z.sum().backward()
print(x.grad[1, :, 1, 1])
print(F.local_response_norm(torch.arange(12.0).reshape(1, 4, 3), 2))
g = F.glu(x, 1)
print(g.shape, g.grad_fn.name(), nn.GLU(0)(torch.tensor([1.0, 2.0])))
for f in (
    lambda: cs(torch.ones(2, 3)),
    lambda: F.channel_shuffle(x, 4),
    lambda: lrn(torch.ones(2, 3)),
):
    try:
        f()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    F.glu(torch.ones(2, 3))
except RuntimeError as e:
    print(e)
cm = nn.CrossMapLRN2d(3, alpha=0.1, beta=0.75, k=1.0)
print(cm)
w = cm(x)
print(w[0, :, 1, 0], w.grad_fn.name())
x.grad = None
w.sum().backward()
print(x.grad[0, :, 1, 0])
try:
    cm(x[0])
except ValueError as e:
    print(e)
