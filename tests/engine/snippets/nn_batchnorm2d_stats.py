import torch
from torch import nn

bn = nn.BatchNorm2d(2, momentum=0.5, eps=1e-3)
x = torch.arange(16.0).reshape(2, 2, 2, 2)
y = bn(x)
print(y)
print(y.grad_fn.name())
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
print(bn.weight, bn.bias)
bn.eval()
print(bn(x)[0, 0])
print(bn)
bn2 = nn.BatchNorm2d(2, momentum=None)
bn2(x)
bn2(x * 2)
print(bn2.running_mean, bn2.num_batches_tracked)
try:
    nn.BatchNorm1d(3)(torch.ones(1, 3))
except ValueError as e:
    print(e)
ln = nn.LayerNorm(4)
print(ln, ln(torch.arange(8.0).reshape(2, 4)))
print(nn.LayerNorm([2, 2], elementwise_affine=False))
gn = nn.GroupNorm(1, 2)
print(gn, gn(x)[1, 1])
