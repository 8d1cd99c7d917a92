import torch

x = torch.tensor([0.5, -1.0, 0.0], requires_grad=True)
for f in [torch.tanh, torch.sigmoid, torch.relu]:
    (g,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    print(g, g.grad_fn, g.grad_fn.next_functions)
    (h,) = torch.autograd.grad(g.sum(), x, create_graph=True)
    print(h, h.grad_fn)
x = torch.tensor([0.5, -1.0], requires_grad=True)
y = x.tanh()
g = torch.ones(2, requires_grad=True)
(gx,) = torch.autograd.grad(y, x, g, create_graph=True)
print(gx.grad_fn.next_functions)
print(torch.autograd.grad(gx.sum(), (x, g)))
