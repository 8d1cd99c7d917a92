import torch
import torch.nn.functional as F

x = torch.tensor(
    [[0.0, 1.0, 2.0], [1.0, 1.0, 0.0], [3.0, -1.0, 2.0], [0.0, 1.0, 2.0]], requires_grad=True
)
for p in (2.0, 1.0, 0.0, 3.0, float("inf")):
    d = F.pdist(x, p)
    d.backward(torch.arange(6.0))
    print(p, d, x.grad)
    x.grad = None
d = torch.pdist(x)
print(d.grad_fn.name(), d.grad_fn._saved_p)
(g,) = torch.autograd.grad(d.sum(), x, create_graph=True)
print(g.grad_fn.name())
try:
    g.sum().backward()
except NotImplementedError as e:
    print(e)
for bad in (lambda: F.pdist(x[0]), lambda: F.pdist(x, -1.0), lambda: F.pdist(x.long())):
    try:
        bad()
    except RuntimeError as e:
        print(e)
t = torch.tensor([-1.0, 2.0, -3.0])
torch.manual_seed(0)
F.rrelu_(t, training=True)
print(t)
