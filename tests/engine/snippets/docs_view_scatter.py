import torch

# the examples of torch.select_scatter, torch.slice_scatter and torch.diagonal_scatter's docs
a = torch.zeros(2, 2)
b = torch.ones(2)
print(a.select_scatter(b, 0, 0))
a = torch.zeros(8, 8)
b = torch.ones(2, 8)
print(a.slice_scatter(b, start=6))
b = torch.ones(8, 2)
print(a.slice_scatter(b, dim=1, start=2, end=6, step=2))
a = torch.zeros(3, 3)
print(torch.diagonal_scatter(a, torch.ones(3), 0))
print(torch.diagonal_scatter(a, torch.ones(2), 1))

# both inputs get gradients: self's with the written view zeroed, src's the view's
x = torch.arange(9.0).view(3, 3).requires_grad_()
d = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
y = x.diagonal_scatter(d)
y.backward(torch.arange(9.0).view(3, 3))
print(y.grad_fn, x.grad, d.grad)
s = torch.ones(3, requires_grad=True)
z = torch.select_scatter(x, s, 1, -1)
print(z.grad_fn.name(), z.grad_fn._saved_dim, z.grad_fn.next_functions)
w = torch.slice_scatter(x.detach(), s.view(1, 3) * 2, 0, 1, 2)
print(w, w.grad_fn.next_functions[0], w.grad_fn._saved_start, w.grad_fn._saved_end)
(g,) = torch.autograd.grad(w.sum(), s)
print(g)

# saved int64 arguments read back unsigned when negative, as PyTorch shows them
v = torch.slice_scatter(x, torch.ones(3, 2), -1, -3, -1)
print(v.grad_fn._saved_dim, v.grad_fn._saved_start, v.grad_fn._saved_end, x[:-1].grad_fn._saved_end)
