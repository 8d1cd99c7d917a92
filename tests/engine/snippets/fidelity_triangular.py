import torch

A = torch.tensor([[2.0, 0.5], [1.0, 3.0]], requires_grad=True)
B = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
X = torch.linalg.solve_triangular(A, B, upper=False)
print(X, X.grad_fn.name())
X.pow(2).sum().backward()
print(A.grad, B.grad)
A.grad = None
B.grad = None
Y = torch.linalg.solve_triangular(A, B, upper=True, left=False, unitriangular=True)
print(Y)
Y.sum().backward()
print(A.grad, B.grad)

S = torch.tensor([[4.0, 1.0], [1.0, 3.0]], requires_grad=True)
L = torch.linalg.cholesky(S)
b = torch.tensor([[1.0], [2.0]], requires_grad=True)
z = torch.cholesky_solve(b, L)
print(z, z.grad_fn.name())
print(torch.allclose(S @ z, b))
z.sum().backward()
print(S.grad, b.grad)
U = torch.linalg.cholesky(S.detach(), upper=True)
print(torch.cholesky_solve(b.detach(), U, upper=True))
try:
    torch.linalg.solve_triangular(A, B)
except TypeError as e:
    print("TypeError")
C = torch.cholesky(S)
print(C, C.grad_fn.name())
C.sum().backward()
print(S.grad)
print(S.cholesky(upper=True), torch.cholesky(S.detach()))
