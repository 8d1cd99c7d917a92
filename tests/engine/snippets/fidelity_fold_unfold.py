import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(32.0).reshape(1, 2, 4, 4).requires_grad_()
unfold = nn.Unfold(kernel_size=(2, 3))
print(unfold)
cols = unfold(x)
print(cols.shape, cols.grad_fn.name())
print(cols[0, :, :2])
cols.pow(2).sum().backward()
print(x.grad)

u = F.unfold(x, kernel_size=2, stride=2, padding=1, dilation=1)
print(u.shape)
fold = nn.Fold(output_size=(4, 4), kernel_size=2, stride=2, padding=1)
print(fold)
y = fold(u)
print(y.grad_fn.name(), torch.equal(y, x))
z = F.fold(F.unfold(x, 2), (4, 4), 2)
print(z)
print(F.unfold(x[0], kernel_size=3, dilation=(1, 2), padding=(1, 1)).shape)

# convolution as unfold + matmul (the docs example)
inp = torch.arange(2 * 3 * 5 * 5.0).reshape(2, 3, 5, 5) / 50
w = torch.arange(4 * 3 * 2 * 2.0).reshape(4, 3, 2, 2) / 30
inp_unf = F.unfold(inp, (2, 2))
out_unf = inp_unf.transpose(1, 2).matmul(w.view(w.size(0), -1).t()).transpose(1, 2)
out = F.fold(out_unf, (4, 4), (1, 1))
print((F.conv2d(inp, w) - out).abs().max() < 1e-5)

g = torch.ones(1, 8, 9, requires_grad=True)
f = F.fold(g, (4, 4), kernel_size=2, dilation=1, stride=1)
print(f)
f.sum().backward()
print(g.grad[0, :2])
for bad in (
    lambda: F.fold(torch.ones(1, 7, 9), (4, 4), 2),
    lambda: F.fold(torch.ones(1, 8, 8), (4, 4), 2),
    lambda: F.unfold(torch.ones(1, 1, 2, 2), 3),
    lambda: F.unfold(torch.ones(2, 2), 1),
):
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
