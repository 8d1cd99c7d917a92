import torch
import torch.nn as nn
import torch.nn.functional as F

x = (
    torch.arange(2 * 2 * 5 * 4 * 3, dtype=torch.float32)
    .reshape(2, 2, 5, 4, 3)
    .cos()
    .requires_grad_()
)
a = nn.AdaptiveAvgPool3d((3, None, 2))
print(a)
y = a(x)
print(y.shape, y.grad_fn.name())
print(y[1, 0])
y.sum().backward()
print(x.grad[0, 0, :, :, 0])
print(nn.AdaptiveAvgPool3d(1)(x).grad_fn.name())
m = nn.AdaptiveMaxPool3d(2, return_indices=True)
print(m)
v, i = m(x)
print(v[0, 1], i[0, 1], v.grad_fn.name())
v2, i2 = F.adaptive_max_pool2d(x[0, :, 0], (2, 3), return_indices=True)
print(v2, i2, v2.grad_fn.name())
v1 = nn.AdaptiveMaxPool1d(3)(x[0, :, 0, 0])
print(v1, v1.grad_fn.name(), v1.grad_fn.next_functions[0][0].name())
print(F.adaptive_avg_pool1d(x[0, :, 0, 0], 2))
for f in (
    lambda: F.adaptive_max_pool3d(torch.ones(2, 3), 2),
    lambda: F.adaptive_avg_pool3d(torch.ones(2, 3), 2),
    lambda: F.adaptive_max_pool1d(x, 3),
):
    try:
        f()
    except RuntimeError as e:
        print(e)
