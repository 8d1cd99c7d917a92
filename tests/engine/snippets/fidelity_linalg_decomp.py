import torch

A = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], requires_grad=True)
B = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)

U, S, Vh = torch.linalg.svd(B, full_matrices=False)
print(S)
print(U.grad_fn.name(), S.grad_fn.name())
print(torch.allclose(U @ torch.diag(S) @ Vh, B))
S.sum().backward()
print(B.grad)
B.grad = None
U, S, Vh = torch.linalg.svd(B, full_matrices=False)
(U.abs().sum() + Vh.abs().sum() + S.sum()).backward()
print(B.grad)

L, Q = torch.linalg.eigh(A)
print(L)
print(L.grad_fn.name())
(L * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(A.grad)
A.grad = None
L, Q = torch.linalg.eigh(A)
Q.abs().sum().backward()
print(A.grad)
A.grad = None

Lc = torch.linalg.cholesky(A)
print(Lc)
print(Lc.grad_fn.name())
Lc.sum().backward()
print(A.grad)
A.grad = None

q, r = torch.linalg.qr(B)
print(q.abs(), r.abs())
print(q.grad_fn.name())
(q.abs().sum() + r.abs().sum()).backward()
print(B.grad)
B.grad = None

sign, logabsdet = torch.linalg.slogdet(A)
print(sign, logabsdet)
print(logabsdet.grad_fn.name())
logabsdet.backward()
print(A.grad)
A.grad = None
ld = torch.logdet(A)
print(ld, ld.grad_fn.name())

# float64: PyTorch's float32 LAPACK build rounds the pseudo-inverse differently from NumPy's
B64 = B.detach().double().requires_grad_()
P = torch.linalg.pinv(B64)
print(P)
print(P.grad_fn.name())
(P ** 2).sum().backward()
print(B64.grad)

res = torch.linalg.lstsq(A, B)
print(res.solution)
print(res.rank, res.residuals)
print(res.solution.grad_fn.name())
res.solution.sum().backward()
print(A.grad)
print(B.grad)
print(torch.linalg.svdvals(B))
print(torch.linalg.eigvalsh(A))
try:
    torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except Exception as e:
    print(type(e).__name__, e)
