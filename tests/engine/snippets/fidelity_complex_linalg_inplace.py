# vdot/dot/outer, in-place ops and item assignment with complex values.
import torch

a = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
b = torch.tensor([2 - 1j, 1j], requires_grad=True)
v = torch.vdot(a, b)
print(v, v.grad_fn.name(), torch.dot(a, b), torch.inner(a, b))
v.backward(torch.tensor(1 + 2j))
print(a.grad, b.grad)
print(torch.outer(a, b).detach(), torch.einsum("i,i->", a, b))
w = a.detach().clone()
w.mul_(1j)
w += 1
w -= 2j
w /= 2
print(w)
w[0] = 5j
w[1] = 2.5
print(w, w.cfloat().dtype, torch.ones(2).cdouble())
for dt in (torch.float64, torch.int64, torch.bool, torch.int32):
    y = torch.zeros(1, dtype=dt)
    try:
        y[0] = 1j
        print(dt, y)
    except RuntimeError as e:
        print(dt, e)
try:
    x = torch.ones(2)
    x += 1j
except RuntimeError as e:
    print(e)
try:
    torch.vdot(a, torch.ones(2))
except RuntimeError as e:
    print(e)
print(a.detach().sum(), torch.tensor([1.0, 2.0]).sum(dtype=torch.cfloat))
m = torch.tensor([[1 + 1j, 2], [3, 4 - 1j]], requires_grad=True)
rhs = torch.tensor([1 + 0j, 1j], requires_grad=True)
sol = torch.linalg.solve(m, rhs)
det = torch.linalg.det(m)
print(sol, det, torch.linalg.inv(m))
(sol.abs().sum() + det.abs()).backward()
print(m.grad, rhs.grad)
A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
L, V = torch.linalg.eig(A)
print(L, V, L.grad_fn.name())
(L.abs().sum() + V.abs().sum()).backward()
print(A.grad)
print(torch.linalg.eig(torch.tensor([[0.0, -1.0], [1.0, 0.0]])))
a.detach().clone().abs_()
