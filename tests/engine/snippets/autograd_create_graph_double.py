import torch

x = torch.tensor([2.0], requires_grad=True)
y = x**3
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn)
(g2,) = torch.autograd.grad(g, x, create_graph=True)
print(g2, g2.grad_fn)
(g3,) = torch.autograd.grad(g2, x)
print(g3)
x = torch.tensor(1.5, requires_grad=True)
y = torch.sin(x) * x
(dy,) = torch.autograd.grad(y, x, create_graph=True)
dy.backward()
print(dy, x.grad)
x = torch.tensor([0.5, -1.0], requires_grad=True)
f = (x.tanh() ** 2).sum()
(gx,) = torch.autograd.grad(f, x, create_graph=True)
hv = torch.autograd.grad(gx, x, grad_outputs=torch.ones(2))[0]
print(gx, hv)
