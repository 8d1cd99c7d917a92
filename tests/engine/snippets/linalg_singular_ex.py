# singular matrices: inv_ex/solve_ex/lu_solve/solve_triangular give LAPACK's inf and nan (info set), errors name the batch element
import torch

Z = torch.zeros(2, 2)
S3 = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
for M in (Z, torch.tensor([[1.0, 2.0], [2.0, 4.0]]), S3):
    LU, piv, info = torch.linalg.lu_factor_ex(M)
    print(info, torch.linalg.lu_solve(LU, piv, torch.eye(M.shape[0])))
    print(torch.linalg.inv_ex(M))
    print(torch.linalg.solve_ex(M, torch.ones(M.shape[0])))
    print(torch.linalg.solve_ex(M, torch.ones(2, M.shape[0]), left=False))
    print(torch.linalg.solve_triangular(M.triu(), torch.eye(M.shape[0]), upper=True))
    print(torch.linalg.solve_triangular(M.triu(), torch.eye(M.shape[0]), upper=True, left=False))
print(torch.linalg.inv_ex(torch.zeros(2, 2, 2)))
x = Z.clone().requires_grad_()
print(torch.linalg.inv_ex(x).inverse.grad_fn.name(), torch.linalg.solve_ex(x, torch.ones(2)).result.grad_fn.name())
calls = [
    lambda: torch.linalg.inv_ex(Z, check_errors=True),
    lambda: torch.linalg.solve_ex(Z, torch.ones(2), check_errors=True),
    lambda: torch.linalg.inv_ex(torch.stack([torch.eye(2), Z]), check_errors=True),
    lambda: torch.linalg.inv(torch.stack([torch.eye(2), torch.eye(2), S3[:2, :2]])),
    lambda: torch.linalg.inv(S3),
    lambda: torch.linalg.solve(torch.ones(3, 3), torch.ones(3, 2), left=False),
    lambda: torch.linalg.solve(torch.ones(3, 3), torch.ones(2)),
]
for call in calls:
    try:
        call()
    except RuntimeError as e:
        print(type(e).__name__, e)
