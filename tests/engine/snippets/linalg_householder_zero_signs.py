# householder_product/orgqr: LAPACK's signs of zero (-0 below the diagonal), complex values, dtype checks
import torch

torch.manual_seed(0)
print(torch.linalg.householder_product(torch.zeros(3, 2), torch.zeros(2)))
print(torch.linalg.householder_product(torch.eye(4, 3), torch.tensor([1.0, 2.0, 0.5])))
a = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
print(torch.linalg.householder_product(a, torch.tensor([1.0, 1.0])))
print(torch.orgqr(a.double(), torch.tensor([1.0], dtype=torch.float64)))
h, tau = torch.geqrf(torch.randn(3, 3))
print(torch.linalg.householder_product(h, tau))
h, tau = torch.geqrf(torch.randn(3, 3, dtype=torch.complex128))
print(torch.linalg.householder_product(h, tau))
bad = [
    (torch.eye(3, 2), torch.ones(2, dtype=torch.float64)),
    (torch.eye(3, 2, dtype=torch.int64), torch.ones(2, dtype=torch.int64)),
    (torch.zeros(2, 3, 2), torch.ones(3, 2)),
]
for x, t in bad:
    try:
        torch.linalg.householder_product(x, t)
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
