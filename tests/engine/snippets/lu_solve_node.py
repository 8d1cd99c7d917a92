# linalg.lu_solve records one LinalgLuSolveBackward0 (saved LU, pivots, result, left, adjoint) with ATen's gradients for every left/adjoint; torch.lu_solve warns once
import warnings

import torch

torch.manual_seed(0)
A = torch.randn(2, 3, 3, dtype=torch.float64, requires_grad=True)
LU, piv = torch.linalg.lu_factor(A)
for left in (True, False):
    for adjoint in (False, True):
        B = torch.randn(2, 3, 2, dtype=torch.float64) if left else torch.randn(2, 2, 3, dtype=torch.float64)
        B.requires_grad_()
        LU, piv = torch.linalg.lu_factor(A)
        X = torch.linalg.lu_solve(LU, piv, B, left=left, adjoint=adjoint)
        n = X.grad_fn
        print(left, adjoint, type(n).__name__, n.name(), [type(f).__name__ for f, _ in n.next_functions])
        print(n._saved_left, n._saved_adjoint, n._saved_pivots, torch.equal(n._saved_result, X), torch.equal(n._saved_LU, LU))
        print(X)
        A.grad = None
        (X * X.detach().cos()).sum().backward()
        print(A.grad, B.grad, sep="\n")
        print(torch.autograd.gradcheck(lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b, left=left, adjoint=adjoint), (A, B)))
LU, piv = torch.linalg.lu_factor(A)
b1 = torch.randn(3, 1, dtype=torch.float64, requires_grad=True)
X = torch.linalg.lu_solve(LU, piv, b1)
print(X.shape, type(X.grad_fn).__name__)
X.sum().backward()
print(b1.grad)
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    Y = torch.lu_solve(b1, LU, piv)
    Y2 = b1.lu_solve(LU, piv)
    out = torch.empty(0, dtype=torch.float64)
    torch.lu_solve(b1.detach(), LU.detach(), piv, out=out)
print(len(ws), [str(w.message) for w in ws])
print(Y, type(Y.grad_fn).__name__, torch.equal(Y, Y2), torch.equal(out, Y.detach()))
