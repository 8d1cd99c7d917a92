import torch
import torch.nn as nn
import torch.nn.functional as F

x = (
    torch.arange(2 * 3 * 2 * 3 * 2, dtype=torch.float32)
    .reshape(2, 3, 2, 3, 2)
    .sin()
    .requires_grad_()
)
bn = nn.BatchNorm3d(3)
y = bn(x)
print(bn, y.grad_fn.name(), bn.running_mean)
inn = nn.InstanceNorm3d(3, affine=True)
print(inn)
z = inn(x)
print(z[0, 0, 0], z.grad_fn.name())
(y.pow(3).sum() + z.pow(3).sum()).backward()
print(x.grad[1, 2, 1], inn.weight.grad)
up = F.interpolate(x, scale_factor=2, mode="trilinear")
print(up.shape, up.grad_fn.name(), up.grad_fn._saved_scales_d, up[0, 0, 0, :, 1])
near = F.interpolate(x, size=(3, 4, 5))
print(near.grad_fn.name(), near[1, 1, 2])
print(nn.Upsample(scale_factor=(1, 2, 2), mode="trilinear", align_corners=True)(x)[0, 0, 1, 1])
try:
    F.interpolate(x, scale_factor=2, mode="bilinear")
except NotImplementedError as e:
    print(e)
try:
    inn(torch.ones(2, 3))
except ValueError as e:
    print(e)
