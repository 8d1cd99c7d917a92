import torch

x = torch.arange(6.0).reshape(2, 3)
print(x.T @ x, x @ x.T, x.mT.shape, torch.matmul(x, torch.ones(3)), torch.ones(2) @ x)
print(torch.mm(x, x.t()), torch.bmm(x.expand(2, 2, 3), x.t().expand(2, 3, 2)).shape)
print(
    torch.tensor([1, 2, 3]).dot(torch.tensor([4, 5, 6])),
    torch.outer(torch.tensor([1, 2]), torch.tensor([1, 2, 3])),
)
print(
    torch.tensor([[1.0, 2.0], [3.0, 4.0]]).inverse(),
    torch.det(torch.tensor([[1.0, 2.0], [3.0, 4.0]])),
)
print(
    torch.einsum("ij,jk->ik", x, x.T),
    torch.einsum("ii", torch.eye(3)),
    torch.einsum("i,j->ij", torch.ones(2), torch.arange(3.0)),
)
print(
    torch.trace(torch.arange(9.0).reshape(3, 3)),
    torch.diag(torch.tensor([1, 2])),
    torch.tensor([[1, 2], [3, 4]]).diag(),
)
print(
    torch.tril(torch.ones(3, 3)),
    torch.triu(torch.ones(3, 3), diagonal=1),
    torch.ones(3, 3).tril_(-1),
)
print(
    torch.linalg.norm(torch.tensor([3.0, 4.0])),
    torch.linalg.vector_norm(torch.tensor([1.0, -2.0]), ord=1),
)
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
(w @ w).sum().backward()
print(w.grad, (w @ w).grad_fn, (w @ torch.ones(2)).grad_fn, torch.ones(2) @ torch.ones(2))
