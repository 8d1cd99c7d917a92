import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 2 * 3 * 4, dtype=torch.float32).reshape(2, 2, 3, 4).requires_grad_()
for m in (
    nn.CircularPad1d((2, 1)),
    nn.CircularPad2d(1),
    nn.ZeroPad3d(1),
    nn.ReflectionPad3d(1),
    nn.ReplicationPad3d((1, 0, 2, 1, 0, 1)),
):
    inp = (
        x[0]
        if isinstance(m, nn.CircularPad1d)
        else x
        if isinstance(m, nn.CircularPad2d)
        else x.unsqueeze(0)
    )
    y = m(inp)
    print(m, y.shape, y.grad_fn.name())
y = nn.CircularPad2d((1, 0, 2, 1))(x)
print(y[0, 0])
(y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
print(x.grad[0, 0])
print(F.pad(x, (1, 1, 1, 1, 1, 0), mode="circular").shape)
print(nn.CircularPad3d(1)(x.unsqueeze(0))[0, 0, 0])
for args in (((1, 1), "reflect"), ((5, 0), "circular")):
    try:
        F.pad(x, *args)
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
try:
    nn.CircularPad1d(1)(x)
except ValueError as e:
    print(e)
try:
    F.pad(x, (1, 1), mode="replicate", value=2.0)
except RuntimeError as e:
    print(e)
