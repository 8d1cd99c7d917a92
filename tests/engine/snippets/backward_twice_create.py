import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x**2).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn.name())
z = (g * g).sum()
z.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as err:
    print("RuntimeError", str(err)[:60])
