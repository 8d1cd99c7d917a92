import math

import torch

# torch.linalg.matrix_exp (PyTorch's reference examples)
A = torch.empty(2, 2, 2)
A[0, :, :] = torch.eye(2, 2)
A[1, :, :] = 2 * torch.eye(2, 2)
print(torch.linalg.matrix_exp(A))
A = torch.tensor([[0, math.pi / 3], [-math.pi / 3, 0]])
print(A.matrix_exp())
B = torch.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=torch.float64, requires_grad=True)
E = torch.matrix_exp(B)
E.sum().backward()
print(E, B.grad)

# torch.vander / torch.linalg.vander
x = torch.tensor([1, 2, 3, 5])
print(torch.vander(x))
print(torch.vander(x, N=3))
print(torch.vander(x, N=3, increasing=True))
print(torch.linalg.vander(x))
v = torch.tensor([0.5, 2.0], requires_grad=True)
V = torch.linalg.vander(v, N=4)
V.sum().backward()
print(V, v.grad)

# torch.addbmm
M = torch.arange(15.0).reshape(3, 5) / 10
batch1 = torch.arange(120.0).reshape(10, 3, 4) / 100
batch2 = torch.arange(200.0).reshape(10, 4, 5) / 100
print(torch.addbmm(M, batch1, batch2))
print(M.clone().addbmm_(batch1, batch2, beta=0.5, alpha=2))

# torch.as_strided
x = torch.arange(9.0).reshape(3, 3).requires_grad_()
t = torch.as_strided(x, (2, 2), (1, 2))
print(t)
t = torch.as_strided(x, (2, 2), (1, 2), 1)
print(t, t._base is x)
t.sum().backward()
print(x.grad)
