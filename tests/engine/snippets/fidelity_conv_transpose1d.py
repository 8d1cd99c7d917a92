import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.ConvTranspose1d(2, 3, 3, stride=2, padding=1, output_padding=1)
print(m)
x = torch.arange(8.0).view(1, 2, 4).requires_grad_()
y = m(x)
print(y.shape, y.grad_fn, y[0, 0])
y.sum().backward()
print(x.grad, m.weight.grad.shape)
print(torch.nn.functional.conv_transpose1d(x, torch.ones(2, 1, 2), stride=2))
print(torch.conv_transpose1d(x, torch.ones(2, 2, 1)).shape, type(m))
