import torch

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
c = a @ b
print(c, c.grad_fn.name())
c.sum().backward()
print(a.grad)
print(b.grad)
v = torch.tensor([1.0, -1.0], requires_grad=True)
mv = a @ v
print(mv, mv.grad_fn.name())
d = v @ v
print(d, d.grad_fn.name())
