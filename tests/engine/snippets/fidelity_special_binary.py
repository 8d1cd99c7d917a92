import torch

x = torch.tensor([0.0, 0.5, 2.0, 3.0], requires_grad=True)
y = torch.tensor([-1.0, 0.25, 1.0, 4.0], requires_grad=True)
r = torch.special.xlog1py(x, y)
print(r, r.grad_fn.name())
r.sum().backward()
print(x.grad, y.grad)
print(torch.special.xlog1py(2, y).grad_fn.name(), torch.special.xlog1py(x, 3.0).grad_fn.name())
print(
    torch.special.xlogy(x, y.abs()),
    torch.special.xlog1py(torch.tensor([0.0]), torch.tensor([float("nan")])),
)
q = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
z = torch.special.zeta(3.0, q)
print(z, z.grad_fn.name())
z.sum().backward()
print(q.grad)
print(torch.special.zeta(torch.tensor([2.0, 4.0]), 1.0))
try:
    torch.special.zeta(q, 2.0).sum().backward()
except NotImplementedError as e:
    print(e)
a = torch.tensor([0.5, 1.0, 3.0])
s = torch.tensor([0.2, 1.0, 2.5], requires_grad=True)
lo, hi = torch.special.gammainc(a, s), torch.special.gammaincc(a, s)
print(lo, hi, lo.grad_fn.name(), hi.grad_fn.name())
(lo - hi).sum().backward()
print(s.grad)
try:
    torch.igamma(s, s).sum().backward()
except NotImplementedError as e:
    print(e)
try:
    torch.igamma(a, 2.0)
except TypeError as e:
    print(e)
w = torch.tensor([0.0, 1.5, 2.0], requires_grad=True)
xy = torch.special.xlogy(2, w) + torch.special.xlogy(w, 3.0)
print(xy, xy.grad_fn.next_functions[0][0].name(), xy.grad_fn.next_functions[1][0].name())
xy.sum().backward()
print(w.grad)
