import torch
import torch.nn as nn

x = torch.arange(64, dtype=torch.float32).reshape(1, 1, 4, 4, 4).sin().requires_grad_()
pool = nn.MaxPool3d(2, return_indices=True)
print(pool)
out, idx = pool(x)
print(out, idx)
print(out.grad_fn.name(), out.grad_fn._saved_kernel_size, out.grad_fn._saved_stride)
out.sum().backward()
print(x.grad.nonzero().shape, x.grad.sum())
m2 = nn.MaxPool3d(3, stride=2, padding=1, dilation=(1, 2, 1), ceil_mode=True)
print(m2, m2(x).shape)
y = m2(x)
y.backward(torch.ones_like(y))
print(x.grad.sum(), x.grad[0, 0, 0])
print(nn.MaxPool3d((2, 1, 2))(x[0]).shape)
for bad in (torch.ones(3, 4), torch.ones(1, 1, 1, 4, 4)):
    try:
        nn.MaxPool3d(2)(bad)
    except RuntimeError as e:
        print(e)
try:
    nn.MaxPool3d(2, padding=2)(x)
except RuntimeError as e:
    print(e)
