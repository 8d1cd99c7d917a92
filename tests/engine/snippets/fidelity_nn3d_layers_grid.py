import torch
import torch.nn.functional as F

# the spatial-transformer pattern: a predicted affine map warps the input
theta = torch.tensor([[[0.8, -0.3, 0.1], [0.2, 0.9, -0.15]]], requires_grad=True)
img = torch.arange(2 * 4 * 5, dtype=torch.float32).reshape(1, 2, 4, 5).div(7).cos()
img.requires_grad_()
grid = F.affine_grid(theta, img.size(), align_corners=False)
print(grid.shape, grid.grad_fn.name(), grid[0, 1])
out = F.grid_sample(img, grid, align_corners=False)
print(out[0, 0], out.grad_fn.name(), out.grad_fn._saved_padding_mode)
out.pow(2).sum().backward()
print(theta.grad, img.grad[0, 1])
for pad in ("border", "reflection"):
    o = F.grid_sample(img, grid * 1.5, padding_mode=pad, align_corners=True)
    print(pad, o[0, 1, 2])
print(F.grid_sample(img, grid, mode="nearest", align_corners=False)[0, 0, 1])
g2 = F.affine_grid(theta, (1, 1, 2, 3))
print(g2)
(gx,) = torch.autograd.grad(
    F.grid_sample(img, grid, align_corners=False).sum(), theta, create_graph=True
)
print(gx)
try:
    F.grid_sample(img, grid, mode="linear")
except ValueError as e:
    print(e)
try:
    F.affine_grid(theta, (1, 2, 3))
except NotImplementedError as e:
    print(e)
