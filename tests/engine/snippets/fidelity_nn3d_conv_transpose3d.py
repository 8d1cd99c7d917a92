import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
up = nn.ConvTranspose3d(2, 1, kernel_size=2, stride=2, output_padding=(1, 0, 0))
print(up)
x = torch.linspace(-1, 1, 2 * 2 * 2 * 3).reshape(1, 2, 2, 2, 3).requires_grad_()
y = up(x)
print(y.shape, y.grad_fn.name())
print(y[0, 0, 4])
(y * torch.arange(y.numel()).reshape(y.shape).cos()).sum().backward()
print(x.grad[0, 1], up.bias.grad)
print(up(x, output_size=[5, 4, 6]).shape)
w = torch.ones(2, 2, 1, 2, 2, requires_grad=True)
z = F.conv_transpose3d(x, w, stride=(1, 2, 2), padding=(0, 1, 1), groups=2)
print(z.shape, z[0, :, 1, 1])
z.sum().backward()
print(w.grad.flatten())
unb = F.conv_transpose3d(torch.ones(2, 1, 1, 1), torch.ones(2, 3, 1, 1, 1))
print(unb.shape)
