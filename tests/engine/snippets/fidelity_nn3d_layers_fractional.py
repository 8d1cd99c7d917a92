import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
# the FractionalMaxPool2d docs example, smaller
m = nn.FractionalMaxPool2d(3, output_size=(5, 4), return_indices=True)
print(m)
input = torch.randn(2, 3, 9, 8, requires_grad=True)
output, idx = m(input)
print(output[0, 0], idx[1, 2], output.grad_fn.name())
output.sum().backward()
print(input.grad[0, 0])
r = nn.FractionalMaxPool2d(2, output_ratio=(0.5, 0.5))
print(r(input).shape)
v = torch.arange(2 * 5 * 6 * 7.0).reshape(1, 2, 5, 6, 7).cos()
out3, i3 = F.fractional_max_pool3d(v, (2, 3, 2), output_size=(3, 2, 4), return_indices=True)
print(out3[0, 1], i3[0, 0])
for f in (
    lambda: nn.FractionalMaxPool2d(2),
    lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5),
    lambda: F.fractional_max_pool2d(input, 8, output_size=3),
):
    try:
        f()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
