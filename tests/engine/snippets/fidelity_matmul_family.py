import torch

A = torch.arange(6.0).reshape(2, 3).requires_grad_()
B = torch.arange(12.0).reshape(3, 4).requires_grad_()
C = A @ B
print(C, C.grad_fn)
C.sum().backward()
print(A.grad, B.grad, sep="\n")
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = A @ v
print(w, w.grad_fn)
print(torch.dot(v, v), torch.dot(v, v).grad_fn)
print(torch.mv(A, v).grad_fn, torch.mm(A, B).grad_fn, torch.matmul(v, B).grad_fn)
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
y = torch.arange(40.0).reshape(2, 4, 5)
z = torch.bmm(x, y)
print(z.shape, z.grad_fn)
z2 = x @ y
print(z2.grad_fn)
print(torch.einsum("bij,bjk->bik", x, y).sum(), torch.einsum("ii", torch.eye(3) * 2))
print(torch.einsum("i,j->ij", v, v).grad_fn)
o = torch.outer(v, v)
print(o, o.grad_fn)
print(torch.addmm(torch.ones(2, 4), A, B).grad_fn)
print(torch.linalg.norm(A), A.T.shape, A.mT.shape)
