import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
exprs = [
    x + y,
    x - y,
    x * y,
    x / y,
    x**2,
    x**y,
    2**x,
    -x,
    x.exp(),
    x.log(),
    x.sqrt(),
    x.abs(),
    x.sin(),
    x.cos(),
    x.tanh(),
    x.sigmoid(),
    x.relu(),
    x + 1,
    x * 2,
    x / 2,
    1 / x,
    2 - x,
    x - 1,
    x.clamp(0, 1),
    torch.maximum(x, y),
    x.rsqrt(),
    x.reciprocal(),
    torch.where(x > 1, x, y),
    x.sign(),
    x.clamp(min=1.5),
]
for e in exprs:
    print(e.grad_fn.name(), [None if f is None else f.name() for f, _ in e.grad_fn.next_functions])
