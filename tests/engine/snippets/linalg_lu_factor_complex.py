import torch

torch.manual_seed(0)
A = torch.randn(3, 3, dtype=torch.complex64)
LU, pivots = torch.linalg.lu_factor(A)
print(LU, pivots)
P, L, U = torch.lu_unpack(LU, pivots)
print(torch.allclose(P @ L @ U, A, atol=1e-6))
print(torch.linalg.lu_factor_ex(A).info)

A2 = torch.randn(2, 3, 3, dtype=torch.complex128, requires_grad=True)
LU2, piv2 = torch.linalg.lu_factor(A2)
print(LU2.grad_fn.name())
LU2.abs().sum().backward()
print(A2.grad)

A2.grad = None
P, L, U = torch.linalg.lu(A2)
print(L.dtype, P.dtype, L.grad_fn.name())
(L.abs().sum() + U.abs().pow(2).sum()).backward()
print(A2.grad)

B = torch.randn(2, 3, 1, dtype=torch.complex128, requires_grad=True)
A2.grad = None
LU2, piv2 = torch.linalg.lu_factor(A2)
X = torch.linalg.lu_solve(LU2, piv2, B)
print(torch.allclose(A2 @ X, B))
X.abs().sum().backward()
print(A2.grad, B.grad)
for left, adjoint in [(False, False), (True, True), (False, True)]:
    A2.grad = B.grad = None
    LU2, piv2 = torch.linalg.lu_factor(A2)
    Bt = B.transpose(-2, -1) if not left else B
    X = torch.linalg.lu_solve(LU2, piv2, Bt, left=left, adjoint=adjoint)
    (X * X.conj()).real.sum().backward()
    print(left, adjoint, A2.grad[0], B.grad[1])
