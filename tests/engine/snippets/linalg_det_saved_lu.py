import torch

# what LinalgDetBackward0 keeps: the LU factors of A.mT and LAPACK's 1-based pivots
A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
d = torch.linalg.det(A)
print(d, d.grad_fn._saved_LU, d.grad_fn._saved_pivots)
B = torch.tensor(
    [[[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], [[0.0, 1.0, 2.0], [3.0, 0.0, 1.0], [1.0, 2.0, 0.0]]],
    requires_grad=True,
)
e = torch.det(B)
print(e, e.grad_fn._saved_LU, e.grad_fn._saved_pivots, e.grad_fn._saved_A is B)
with torch.no_grad():
    print(torch.linalg.det(B))
