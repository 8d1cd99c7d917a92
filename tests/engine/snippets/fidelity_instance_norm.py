import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
m = nn.InstanceNorm1d(3)
y = m(x)
print(m, y.grad_fn, y.grad_fn.next_functions)
print(y[0])
m2 = nn.InstanceNorm2d(3, affine=True)
y2 = m2(x.view(2, 3, 2, 2) ** 2)
print(m2, y2.grad_fn)
(y2 * torch.arange(4.0).view(1, 1, 2, 2)).sum().backward()
print(x.grad[1], m2.weight.grad, m2.bias.grad)
m3 = nn.InstanceNorm1d(3, track_running_stats=True)
print(m3(x)[1, 2], m3.running_mean, m3.running_var)
m3.eval()
print(m3(x)[0, 0])
print(F.instance_norm(torch.tensor([[[1.0, 2.0, 4.0]]])), nn.InstanceNorm1d(2)(torch.tensor([[1.0, 3.0], [2.0, 2.0]])))
