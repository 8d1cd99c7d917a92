# Reductions and matrix products of complex tensors: gradients use the conjugate transpose.
import torch

m = torch.tensor([[1 + 1j, 2.0], [0.0, 1j]], requires_grad=True)
n = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([1 - 1j, 2 + 0.5j], requires_grad=True)
print(m.sum(), m.mean(), m.sum(0), m.mean(dim=1, keepdim=True))
o = m @ n.to(torch.cfloat)
print(o, o.grad_fn.name())
o.abs().sum().backward()
print(m.grad, n.grad)
m.grad = None
d = v @ v
print(d, d.grad_fn.name())
mv = m @ v
print(mv, mv.grad_fn.name())
(d.abs() + mv.abs().sum()).backward()
print(m.grad, v.grad)
b = torch.arange(8.0).reshape(2, 2, 2) * (1 - 1j)
b.requires_grad_()
out = torch.matmul(b, b)
torch.view_as_real(out).pow(2).sum().backward()
print(out, b.grad)
print(torch.linalg.vector_norm(torch.tensor([3 + 4j, 1 - 2j])))
torch.tensor([1j, 2.0]).max()
