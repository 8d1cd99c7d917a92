import torch

A = torch.tensor([[1.0, -2.0], [3.0, 4.0], [0.5, 1.0]], requires_grad=True)
for o in ["fro", "nuc", 2, -2, 1, -1, float("inf"), -float("inf")]:
    r = torch.linalg.matrix_norm(A, o)
    print(o, r, r.grad_fn.name())
print(torch.linalg.norm(A, 2), torch.linalg.norm(A, "nuc"), torch.linalg.norm(A))
print(torch.norm(A, p="nuc"), torch.norm(A, p="fro"), A.norm())
print(torch.linalg.matrix_norm(A, 2, keepdim=True).shape, torch.linalg.matrix_norm(A, 1, keepdim=True))
B = torch.arange(12.0).reshape(2, 2, 3)
print(torch.linalg.matrix_norm(B, 1), torch.linalg.matrix_norm(B, float("inf"), dim=(0, 2)))
print(torch.linalg.norm(B, dim=(1, 2)), torch.linalg.norm(B, ord=-1, dim=(0, 1)))
n = torch.linalg.matrix_norm(A, 2)
n.backward()
print(A.grad)
A.grad = None
torch.linalg.matrix_norm(A, 1).backward()
print(A.grad)
print(torch.linalg.matrix_rank(torch.tensor([[1.0, 2.0], [2.0, 4.0]])), torch.linalg.matrix_rank(B))
S = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
c = torch.linalg.cond(S)
print(c, c.grad_fn.name())
print(torch.linalg.cond(S, 1), torch.linalg.cond(S, "fro"))
try:
    torch.linalg.matrix_norm(A, 3)
except RuntimeError as e:
    print("RuntimeError:", e)
