import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 5 * 5 * 5, dtype=torch.float32).reshape(1, 2, 5, 5, 5).requires_grad_()
m = nn.AvgPool3d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
print(m)
y = m(x)
print(y[0, 1], y.grad_fn.name())
y.sum().backward()
print(x.grad[0, 0, 0])
print(F.avg_pool3d(x, 2, divisor_override=3)[0, 0, 0])
print(F.avg_pool3d(x, (1, 2, 3), stride=(1, 1, 2), padding=(0, 1, 1))[0, 0, 0])
print(nn.AvgPool3d(2)(x).grad_fn._saved_stride, nn.AvgPool3d(2, 1)(x).grad_fn._saved_stride)
try:
    F.avg_pool3d(torch.ones(1, 1, 1, 4, 4), 2)
except RuntimeError as e:
    print(e)
print(F.lp_pool3d(x.detach() + 1, 2, 2)[0, 0, 0])
print(nn.LPPool3d(1.5, 2), nn.LPPool2d(2, 3), nn.LPPool1d(2, 2, stride=1))
