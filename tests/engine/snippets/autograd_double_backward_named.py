import torch
import torch.nn.functional as F

# under create_graph the gradients of grid_sample, layer_norm and batch_norm are one node named
# <Op>BackwardBackward0 (not the ops it is composed of); grid_sample's differentiates on to third
# order (the norms' third derivatives are left out: PyTorch's treat the saved statistics as
# constants, the engine does not)
torch.manual_seed(0)
x = torch.randn(2, 3, 4, 4, dtype=torch.float64, requires_grad=True)
grid = (torch.rand(2, 3, 3, 2, dtype=torch.float64) * 2.2 - 1.1).requires_grad_()
x5 = torch.randn(2, 3, 2, 2, 4, dtype=torch.float64, requires_grad=True)
grid5 = (torch.rand(2, 3, 1, 2, 3, dtype=torch.float64) * 2.2 - 1.1).requires_grad_()
w = torch.randn(3, dtype=torch.float64, requires_grad=True)
b = torch.randn(3, dtype=torch.float64, requires_grad=True)
cases = {
    "grid_sample": (lambda: F.grid_sample(x, grid, align_corners=False), (x, grid)),
    "grid_sample_3d": (
        lambda: F.grid_sample(x5, grid5, padding_mode="border", align_corners=True),
        (x5, grid5),
    ),
    "layer_norm": (lambda: F.layer_norm(x, (4,)), (x,)),
    "layer_norm_affine": (lambda: F.layer_norm(x.transpose(1, 3), (3,), w, b), (x, w, b)),
    "batch_norm": (lambda: F.batch_norm(x, None, None, w, b, training=True), (x, w, b)),
}
for name, (f, inputs) in cases.items():
    y = f()
    gs = torch.autograd.grad((y * y.detach().sin()).pow(2).sum(), inputs, create_graph=True)
    for g in gs:
        print(name, g.grad_fn.name(), [n.name() if n else None for n, _ in g.grad_fn.next_functions])
    h = torch.autograd.grad(sum((g * g).sum() for g in gs), inputs, create_graph=True)
    for t in h:
        print(t.abs().sum(), t.flatten()[:6])
    if name.startswith("grid"):
        third = torch.autograd.grad(sum(t.pow(2).sum() for t in h), inputs[0])[0]
        print(third.flatten()[:6])
