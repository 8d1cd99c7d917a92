import torch

p = torch.nn.Parameter(torch.ones(3))
print(p, p.requires_grad)
try:
    p[0].requires_grad_(False)
except RuntimeError as e:
    print(e)
q = torch.ones(3, requires_grad=True)
try:
    q[1:] *= 2
except RuntimeError as e:
    print(e)
r = q.clone()
r[1:] *= 2
print(r, r.grad_fn)
r.sum().backward()
print(q.grad)
a = torch.ones(2, 2)
a[0].requires_grad_()
print(a.requires_grad)
