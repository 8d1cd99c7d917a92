import torch
# the doc examples of torch.linalg.ldl_factor, ldl_solve, tensorinv and tensorsolve
torch.manual_seed(0)
A = torch.randn(3, 3)
A = A @ A.mT
LD, pivots, info = torch.linalg.ldl_factor_ex(A)
print(LD, pivots, info)
B = torch.randn(3, 2)
X = torch.linalg.ldl_solve(LD, pivots, B)
print(torch.linalg.norm(A @ X - B) < 1e-4)
S = torch.tensor([[0., 1., 2.], [1., 0., 3.], [2., 3., 0.]])
print(torch.linalg.ldl_factor(S))
R = torch.randn(3, 3, requires_grad=True)
print(torch.linalg.ldl_factor(R + R.mT).LD.grad_fn)

A = torch.eye(4 * 6).reshape((4, 6, 8, 3))
Ainv = torch.linalg.tensorinv(A, ind=2)
print(Ainv.shape)
B = torch.randn(4, 6)
print(torch.allclose(torch.tensordot(Ainv, B), torch.linalg.tensorsolve(A, B)))
A = torch.randn(4, 4, requires_grad=True)
Atensorinv = torch.linalg.tensorinv(A, ind=1)
print(Atensorinv.grad_fn, Atensorinv.grad_fn.next_functions)
try:
    torch.linalg.tensorinv(torch.randn(2, 3, 4))
except RuntimeError as e:
    print(e)

A = torch.eye(2 * 3 * 4).reshape((2 * 3, 4, 2, 3, 4))
B = torch.randn(2 * 3, 4)
X = torch.linalg.tensorsolve(A, B)
print(X.shape, torch.allclose(torch.tensordot(A, X, dims=X.ndim), B))
A = torch.randn(6, 4, 4, 3, 2)
B = torch.randn(4, 3, 2)
X = torch.linalg.tensorsolve(A, B, dims=(0, 2))
print(X.shape)
A = A.permute(1, 3, 4, 0, 2)
print(A.shape[B.ndim:], torch.allclose(torch.tensordot(A, X, dims=X.ndim), B, atol=1e-6))
