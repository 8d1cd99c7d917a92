import torch

A = torch.tensor([[4.0, 1.0], [1.0, 3.0]], requires_grad=True)
print(torch.linalg.inv_ex(A))
print(torch.linalg.cholesky_ex(A))
print(torch.linalg.solve_ex(A, torch.ones(2)))
inv, info = torch.linalg.inv_ex(A)
inv.sum().backward()
print(A.grad, info)
print(torch.linalg.diagonal(A), torch.linalg.diagonal(A).grad_fn.name())
print(torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
print(torch.linalg.cholesky_ex(torch.tensor([[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])))
try:
    torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]]), check_errors=True)
except torch.linalg.LinAlgError as e:
    print("LinAlgError:", e)
