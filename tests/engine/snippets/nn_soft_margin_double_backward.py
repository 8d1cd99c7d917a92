import torch
import torch.nn.functional as F

# soft_margin_loss has no derivative for its target: a target that requires grad is refused
# (while recording); under create_graph the gradient is one SoftMarginLossBackwardBackward0
# node over (grad_output, self)
x = torch.tensor([0.5, -1.0, 2.0, 0.0], dtype=torch.float64, requires_grad=True)
y = torch.tensor([1.0, -1.0, 0.5, -1.0], dtype=torch.float64, requires_grad=True)
for make in (
    lambda: F.soft_margin_loss(x, y),
    lambda: torch.nn.SoftMarginLoss(reduction="sum")(x, y),
    lambda: F.soft_margin_loss(x.detach(), y, reduction="none"),
):
    try:
        print(make())
    except RuntimeError as e:
        print(type(e).__name__, e)
with torch.no_grad():
    print(F.soft_margin_loss(x, y))
print(F.soft_margin_loss(x, y.detach()))

t = y.detach()
for red in ("mean", "sum", "none"):
    loss = F.soft_margin_loss(x, t, reduction=red)
    go = torch.ones_like(loss).mul(1.5).requires_grad_()
    (g,) = torch.autograd.grad(loss, x, go, create_graph=True)
    fn = g.grad_fn
    print(red, g, fn.name(), [n and n.name() for n, _ in fn.next_functions])
    print(fn._saved_reduction, fn._saved_target, fn._saved_grad_output.shape)
    h = torch.autograd.grad(g.pow(2).sum(), (x, go), create_graph=True)
    print([t.detach() for t in h])  # (the third-order graph is not compared)
    print(torch.autograd.grad(h[0].pow(3).sum(), x)[0])
(g,) = torch.autograd.grad(F.soft_margin_loss(x, t), x, create_graph=True)
print(g.grad_fn.name(), [n and n.name() for n, _ in g.grad_fn.next_functions])
