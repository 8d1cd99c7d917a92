import torch
import torch.nn.functional as F

# under create_graph binary_cross_entropy's input gradient is one
# BinaryCrossEntropyBackwardBackward0 node over (grad_output, self, target); with logits it is
# the graph of the ops PyTorch composes it of (sigmoid, sub, mul, div)
torch.manual_seed(0)
z = torch.randn(6, dtype=torch.float64, requires_grad=True)
t = torch.rand(6, dtype=torch.float64)
w = torch.rand(6, dtype=torch.float64)


def chain(fn, depth=0):
    if fn is None or depth > 4:
        return ["  " * depth + str(fn and "...")]
    out = ["  " * depth + fn.name()]
    for n, _ in fn.next_functions:
        out += chain(n, depth + 1)
    return out


for name, f in {
    "bce": lambda: F.binary_cross_entropy(z.sigmoid(), t),
    "bce_weight_sum": lambda: F.binary_cross_entropy(z.sigmoid(), t, weight=w, reduction="sum"),
    "bce_none": lambda: F.binary_cross_entropy(z.sigmoid(), t, reduction="none").pow(2).sum(),
    "logits": lambda: F.binary_cross_entropy_with_logits(z, t),
    "logits_pos_weight": lambda: F.binary_cross_entropy_with_logits(z, t, pos_weight=t + 1),
    "logits_weight_sum": lambda: F.binary_cross_entropy_with_logits(
        z, t, weight=w, reduction="sum"
    ),
}.items():
    (g,) = torch.autograd.grad(f(), z, create_graph=True)
    print(name, g.detach())
    print("\n".join(chain(g.grad_fn)))
    (h,) = torch.autograd.grad(g.pow(2).sum(), z, create_graph=True)
    print("  ", h.detach())
    print("  ", torch.autograd.grad(h.pow(2).sum(), z)[0])

# a target that requires grad: both gradients, differentiable again
tt = t.clone().requires_grad_()
for f in (F.binary_cross_entropy, F.binary_cross_entropy_with_logits):
    p = z.sigmoid() if f is F.binary_cross_entropy else z
    gz, gt = torch.autograd.grad(f(p, tt), (z, tt), create_graph=True)
    print(gz.detach(), gt.detach())
    print(torch.autograd.grad((gz.pow(2).sum() + gt.pow(2).sum()), (z, tt)))
