import torch
import torch.nn as nn

torch.manual_seed(0)
lazy = nn.LazyLinear(3)
print(lazy, lazy.has_uninitialized_params())
opt = torch.optim.SGD(lazy.parameters(), lr=0.1)
y = lazy(torch.ones(2, 4))
print(y, lazy, type(lazy).__name__)
y.sum().backward()
opt.step()
print(lazy.weight)
w = torch.empty(6, 3)
nn.init.sparse_(w, 0.5)
print(w)
print(nn.Hardswish(inplace=True), nn.Hardsigmoid(inplace=True), nn.Mish(inplace=True))
print(nn.UpsamplingNearest2d(scale_factor=2), nn.UpsamplingBilinear2d(size=(2, 3)))
img = torch.arange(4.0).reshape(1, 1, 2, 2)
print(nn.UpsamplingBilinear2d(scale_factor=2)(img))
print(nn.UpsamplingNearest2d(size=3)(img).grad_fn)
net = nn.Sequential(
    nn.LazyConv2d(4, 3, padding=1), nn.ReLU(), nn.LazyConvTranspose2d(2, 2, stride=2)
)
print(net)
out = net(torch.ones(1, 3, 4, 4))
print(out.shape, net, out[0, :, 0, 0])
try:
    nn.LazyConv3d(2, 1)(torch.ones(3, 2))
except RuntimeError as e:
    print(e)
bn = nn.LazyBatchNorm2d()
print(bn)
out = bn(torch.arange(24.0).reshape(2, 3, 2, 2))
print(bn, bn.running_mean, out[0, :, 0, 0])
inorm = nn.LazyInstanceNorm1d(affine=True)
print(inorm)
try:
    inorm(torch.ones(3, 4))
except ValueError as e:
    print(e)
old = nn.init.normal(torch.empty(3), 0.0, 1.0)
print(old, nn.init.eye(torch.empty(2, 3)))
