import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.linspace(-1, 1, 20).reshape(1, 1, 4, 5).cos().requires_grad_()
grid = torch.tensor([[[[-0.9, -0.7], [0.3, 0.5], [1.0, 1.0]], [[0.1, 0.95], [1.2, -1.1], [-1.4, 0.0]]]])
grid.requires_grad_()
for align in (True, False):
    for padding in ("zeros", "border", "reflection"):
        y = F.grid_sample(x, grid, mode="bicubic", padding_mode=padding, align_corners=align)
        print(align, padding, y, y.grad_fn.name())
        y.pow(2).sum().backward()
        # outside the image the x-slopes cancel to zero up to rounding (+ 0 makes -0 print as 0)
        print(x.grad, grid.grad.round(decimals=4) + 0)
        x.grad = grid.grad = None

img = torch.randn(2, 3, 6, 5, dtype=torch.float64, requires_grad=True)
g = (torch.rand(2, 4, 3, 2, dtype=torch.float64) * 2.4 - 1.2).requires_grad_()
out = F.grid_sample(img, g, mode="bicubic", padding_mode="border", align_corners=False)
print(out.shape, out.sum(), out[1, 2])
gi, gg = torch.autograd.grad(out.sin().sum(), (img, g))
print(gi.sum(), gi[0, 0], gg[1])
print(torch.autograd.gradcheck(
    lambda a, b: F.grid_sample(a, b, mode="bicubic", padding_mode="reflection", align_corners=True),
    (img, g),
))
theta = torch.tensor([[[0.8, -0.3, 0.1], [0.2, 0.9, -0.2]]])
warped = F.grid_sample(x.detach(), F.affine_grid(theta, (1, 1, 3, 3), align_corners=False), mode="bicubic", align_corners=False)
print(warped)
