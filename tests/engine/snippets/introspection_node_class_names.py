import torch
import torch.nn.functional as F


def walk(t):
    seen, stack, bad, n = set(), [t.grad_fn], [], 0
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        n += 1
        name = fn.name().rsplit("::", 1)[-1]
        if type(fn).__name__ != name:
            bad.append((type(fn).__name__, fn.name()))
        stack.extend(f for f, _ in fn.next_functions)
    return n, bad


torch.manual_seed(0)
x = torch.randn(4, 5, requires_grad=True)
t = torch.tensor([1, 0, 3, 2])
soft = torch.softmax(torch.randn(4, 5), 1)
cases = {
    "ce_smooth": lambda: F.cross_entropy(x, t, label_smoothing=0.1),
    "ce_soft": lambda: F.cross_entropy(x, soft),
    "trapezoid": lambda: torch.trapezoid(x),
    "ndtr": lambda: torch.special.ndtr(x),
    "std": lambda: x.std(),
    "var": lambda: x.var(1),
    "std_mean": lambda: torch.std_mean(x, 1)[0],
    "x_div_2": lambda: x / 2,
    "x_mul_2": lambda: x * 2,
    "gelu2": lambda: torch.autograd.grad(F.gelu(x).sum(), x, create_graph=True)[0],
    "silu2": lambda: torch.autograd.grad(F.silu(x).sum(), x, create_graph=True)[0],
    "norm": lambda: x.norm(dim=1),
    "lstm": lambda: torch.nn.LSTM(5, 3)(x[None])[0],
    "pdist2": lambda: torch.autograd.grad(F.pdist(x).sum(), x, create_graph=True)[0],
    "hardshrink": lambda: F.hardshrink(x),
    "softshrink": lambda: F.softshrink(x),
    "mse": lambda: F.mse_loss(x, x.detach() * 0),
    "layer_norm": lambda: F.layer_norm(x, (5,)),
    "weight_norm": lambda: torch._weight_norm(x, torch.ones(1, 5), 0),
}
for k, f in cases.items():
    out = f()
    n, bad = walk(out)
    print(k, out.grad_fn.name(), type(out.grad_fn).__name__, bad)
y = torch.nn.functional.mse_loss(x, torch.zeros(4, 5))
print(y.grad_fn._saved_reduction, type(y.grad_fn._saved_reduction))
z = x.std()
print(type(z.grad_fn).__name__)
