import torch

x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
ops = {
    "sum": lambda t: t.sum(dim=1),
    "mean": lambda t: t.mean(dim=0),
    "max": lambda t: t.max(dim=1).values,
    "min": lambda t: t.min(),
    "prod": lambda t: t.prod(dim=1),
    "std": lambda t: t.std(dim=1),
    "var": lambda t: t.var(),
    "norm": lambda t: t.norm(dim=1),
    "logsumexp": lambda t: t.logsumexp(dim=1),
    "cumsum": lambda t: t.cumsum(dim=1),
    "cumprod": lambda t: t.cumprod(dim=1),
    "amax": lambda t: t.amax(dim=0),
    "median": lambda t: t.median(),
    "topk": lambda t: t.topk(2, dim=1).values,
    "sort": lambda t: t.sort(dim=0).values,
    "softmax": lambda t: t.softmax(dim=1)[:, 0],
}
for name, fn in ops.items():
    x.grad = None
    out = fn(x)
    out.sum().backward()
    print(name, out.grad_fn.name(), x.grad)
