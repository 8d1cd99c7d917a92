import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Conv3d(2, 3, kernel_size=(2, 3, 2), stride=(1, 2, 1), padding=1)
print(m)
x = torch.arange(2 * 2 * 3 * 4 * 4, dtype=torch.float32).reshape(2, 2, 3, 4, 4).div(50).sin()
x.requires_grad_()
y = m(x)
print(y.shape, y.grad_fn.name(), [f[0].name() for f in y.grad_fn.next_functions])
print(y[0, :, 1])
y.pow(2).sum().backward()
print(m.weight.grad.sum(dim=(2, 3, 4)), m.bias.grad)
print(x.grad[1, 0, 2])
print(y.grad_fn._saved_stride, y.grad_fn._saved_padding, y.grad_fn._saved_transposed)
g = nn.Conv3d(4, 4, 2, groups=2, bias=False, dilation=2)
print(g, g.weight.shape)
try:
    m(torch.ones(2, 3, 4))
except RuntimeError as e:
    print(e)
try:
    m(torch.ones(1, 3, 3, 4, 4))
except RuntimeError as e:
    print(e)
