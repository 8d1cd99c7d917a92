import torch

x = torch.ones(3)
print(x.requires_grad, x.grad_fn, x.is_leaf)
x.requires_grad_()
print(x.requires_grad)
y = x * 2
d = y.detach()
print(d.requires_grad, d.is_leaf, d.grad_fn)
d[0] = 10
print(y)
c = y.clone()
print(c.grad_fn, c.requires_grad)
e = x.detach().clone().requires_grad_(True)
print(e.is_leaf, e.requires_grad)
try:
    y.requires_grad_(False)
except RuntimeError as err:
    print(err)
z = torch.tensor([1, 2])
try:
    z.requires_grad = True
except RuntimeError as err:
    print(err)
print(torch.zeros(2, requires_grad=True).sum().requires_grad)
print(x.data.requires_grad, x.data is x, x.data.data_ptr() == x.data_ptr())
x.data = torch.tensor([5.0, 6.0, 7.0])
print(x, x.requires_grad)
k = torch.tensor([1.0], requires_grad=True)
k2 = k.detach_() if False else k.detach()
print(k2.requires_grad, k.grad)
w = torch.nn.Parameter(torch.randn(2) * 0 + 1)
print(w, w.requires_grad, w.is_leaf, torch.nn.Parameter(torch.ones(1), requires_grad=False))
