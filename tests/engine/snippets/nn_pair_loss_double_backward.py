import torch
import torch.nn.functional as F

# under create_graph each input's gradient of mse / smooth_l1 / huber is its own
# <Loss>BackwardBackward0 node over (grad, that input, the other), as PyTorch's
x = torch.linspace(-2, 2, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
t = torch.linspace(1, -1, 6, dtype=torch.float64).reshape(2, 3).cos().requires_grad_()
for f in (F.mse_loss, F.smooth_l1_loss, F.huber_loss):
    for red in ("mean", "sum", "none"):
        y = f(x, t, reduction=red)
        gx, gt = torch.autograd.grad((y * y).sum(), (x, t), create_graph=True)
        for g in (gx, gt):
            print(f.__name__, red, g.grad_fn.name(), [n.name() for n, _ in g.grad_fn.next_functions])
        h = torch.autograd.grad((gx * gx).sum() + (gt * gt.sin()).sum(), (x, t))
        print(h)
x1 = torch.tensor([[0.5, -1.0, 2.0]], dtype=torch.float64, requires_grad=True)
y = F.mse_loss(x1, t)  # broadcast target, with PyTorch's warning
gx, gt = torch.autograd.grad(y, (x1, t), create_graph=True)
print(gx, gt, torch.autograd.grad(gt.pow(3).sum(), x1))
