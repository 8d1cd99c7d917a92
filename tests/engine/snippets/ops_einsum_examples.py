import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
print(torch.einsum("ij,jk->ik", a, b), torch.einsum("ij->ji", a), torch.einsum("ij->", a))
print(torch.einsum("ij->j", a), torch.einsum("i,i->", torch.ones(3), torch.arange(3.0)))
print(torch.einsum("bij,bjk->bik", a.expand(2, 2, 3), b.expand(2, 3, 4)).shape)
print(
    torch.einsum("...ij->...ji", torch.zeros(2, 3, 4)).shape,
    torch.einsum("ii->i", torch.eye(3) * 2),
)
w = a.clone().requires_grad_()
torch.einsum("ij,jk->ik", w, b).sum().backward()
print(w.grad)
