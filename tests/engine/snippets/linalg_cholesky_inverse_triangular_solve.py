import torch
# torch.cholesky_inverse's doc example, then the deprecated triangular_solve's
torch.manual_seed(0)
A = torch.randn(3, 2, dtype=torch.float64)
A = A @ A.mT + torch.eye(3, dtype=torch.float64) * 1e-3
L = torch.linalg.cholesky(A).requires_grad_()
print(torch.dist(torch.inverse(A), torch.cholesky_inverse(L)) < 1e-6)
inv = torch.cholesky_inverse(L)
print(inv.grad_fn, inv.stride(), L.stride())
inv.trace().backward()
print(L.grad)
U = torch.linalg.cholesky(A, upper=True)
print(torch.dist(torch.inverse(A), torch.cholesky_inverse(U, upper=True)) < 1e-6)

A = torch.randn(2, 2).triu().requires_grad_()
b = torch.randn(2, 3, requires_grad=True)
r = torch.triangular_solve(b, A)
print(r.solution.grad_fn, r.cloned_coefficient.grad_fn, type(r).__name__)
x, m = r
(x.sum() + m.sum()).backward()
print(A.grad, b.grad)
print(torch.triangular_solve(b, A, transpose=True, unitriangular=True).solution)
print(torch.linalg.inv(A).stride(), torch.linalg.inv(A).is_contiguous())
print(torch.linalg.inv(A).reshape(-1).grad_fn)
try:
    torch.linalg.inv(A).view(-1)
except RuntimeError as e:
    print(e)
