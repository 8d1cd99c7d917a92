import torch

torch.manual_seed(0)
a = torch.randn(3, requires_grad=True)
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    print(type(ctx).__name__)
    b = a.clone()
    out = (b**2).sum()
    b.sin_()
    out.backward()
    print(a.grad / a.detach())
print(a.grad)
x = torch.ones(2, requires_grad=True)
y = x * 1
print(y._version)
torch.autograd.graph.increment_version(y)
print(y._version)
torch.autograd.graph.increment_version([y, x])
print(y._version, x._version)
z = x.exp()
torch.autograd.graph.increment_version(z)
try:
    z.sum().backward()
except RuntimeError as e:
    print(e)
try:
    torch.autograd.graph.increment_version(None)
except RuntimeError as e:
    print(e)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    p = torch.ones(3, requires_grad=True)
    q = p * 2
    r = q.exp()
    s = r.sum()
    r.mul_(0)
    print(r)
    s.backward()
    print(p.grad)
    w = torch.ones(2, requires_grad=True).clone()
    v = w.view(2)
    l = (v * v).sum()
    w.add_(1)
    l.backward()
try:
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        with torch.autograd.graph.allow_mutation_on_saved_tensors():
            pass
except RuntimeError as e:
    print(e)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    t = torch.ones(2, requires_grad=True)
    loss = (t * t).sum()
    with torch.no_grad():
        t.mul_(3)
    loss.backward()
    print(t.grad, t)
try:
    t2 = torch.ones(2, requires_grad=True)
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        loss = (t2.clone() ** 2).sum()
    loss.backward()
except RuntimeError as e:
    print(e)
