import torch
a = torch.tensor([[2, 3, 1], [float('nan'), 1, float('nan')]])
print(torch.nanmedian(a, dim=0))
print(a.median(), a.nanmedian())
a = torch.tensor([[2., 3, 1], [float('nan'), 1, float('nan')]], requires_grad=True)
r = torch.nanmedian(a)
print(r, sorted(x for x in dir(r.grad_fn) if x.startswith('_saved')))
r.backward()
print(a.grad)
r = a.nanmedian(0)
print(r, sorted(x for x in dir(r.values.grad_fn) if x.startswith('_saved')))
r.values.sum().backward()
print(a.grad)
print(a.nanmedian(1, keepdim=True))
print(torch.tensor([float('nan')] * 3).nanmedian(), torch.tensor([float('nan')] * 3).nanmedian(0))
print(torch.tensor([1, 5, 2, 3]).nanmedian(), torch.tensor([[1, 5, 2, 3]]).nanmedian(dim=1))
print(torch.tensor([]).nanmedian())
try:
    torch.tensor([]).nanmedian(0)
except Exception as e:
    print(type(e).__name__, e)
# torch.renorm's docstring
x = torch.ones(3, 3)
x[1].fill_(2)
x[2].fill_(3)
print(x)
print(torch.renorm(x, 1, 0, 5))
torch.manual_seed(0)
w = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
for p in (2, 1, 3, float('inf')):
    y = w.renorm(p, 1, 1.0)
    g, = torch.autograd.grad((y * torch.arange(12.).view(4, 3)).sum(), w, create_graph=True)
    print(p, y, g, sorted(x for x in dir(y.grad_fn) if x.startswith('_saved')), y.grad_fn._saved_p)
    print(torch.autograd.grad(g.pow(2).sum(), w)[0])
print(torch.autograd.gradcheck(lambda t: t.renorm(2, 0, 0.8), (w,)))
print(w.detach().clone().renorm_(float('inf'), 0, 0.5))
for args in [(2, 0, -1), (-1, 0, 1)]:
    try:
        w.renorm(*args)
    except RuntimeError as e:
        print(e)
try:
    torch.ones(3).renorm(2, 0, 1)
except RuntimeError as e:
    print(e)
# torch.einsum's sublist format (its docstring)
As = torch.randn(3, 2, 5)
Bs = torch.randn(3, 5, 4)
print(torch.einsum(As, [..., 0, 1], Bs, [..., 1, 2], [..., 0, 2]))
x = torch.randn(5, requires_grad=True)
y = torch.randn(4)
out = torch.einsum(x, [0], y, [1])
print(out.shape, out.grad_fn)
print(torch.einsum(torch.eye(3), [30, 30]))
try:
    torch.einsum(x, [60])
except ValueError as e:
    print(e)
