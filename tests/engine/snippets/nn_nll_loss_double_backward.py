import torch
import torch.nn.functional as F

# a gradient penalty through cross_entropy: the second derivative flows through nll_loss's
# backward (linear in its incoming gradient), shown as NllLossBackwardBackward0
logits = torch.linspace(-2, 2, 24, dtype=torch.float64).reshape(6, 4).sin().requires_grad_()
target = torch.tensor([0, 3, 1, 1, 2, -100])
w = torch.tensor([1.0, 2.0, 0.5, 1.5], dtype=torch.float64)
for kwargs in (
    {},
    {"reduction": "sum"},
    {"reduction": "none"},
    {"weight": w},
    {"label_smoothing": 0.1},
):
    loss = F.cross_entropy(logits, target, **kwargs)
    out = loss.pow(2).sum()
    (g,) = torch.autograd.grad(out, logits, create_graph=True)
    print(kwargs.keys(), g.grad_fn.name(), g.grad_fn.next_functions[0][0].name())
    (h,) = torch.autograd.grad(g.pow(2).sum(), logits)
    print(h)

x = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
loss = F.nll_loss(x.log_softmax(1).pow(2), torch.tensor([1, 0, 3]))
(g,) = torch.autograd.grad(loss * loss, x, create_graph=True)
print(g)
print(torch.autograd.grad(g.pow(2).sum(), x)[0])
