import torch

a = torch.tensor([[4.0, 1.0], [1.0, 3.0]], requires_grad=True)
with torch.no_grad():
    v = a[0]
    w = a.view(4)
    d = a.detach()
print(v.requires_grad, v.is_leaf, v.grad_fn, v._base is a)
print(w.requires_grad, w.is_leaf, w.grad_fn)
print(d.requires_grad, d.is_leaf)
print(v)
y = (v * 2).sum()
print(y.requires_grad, y.grad_fn.name(), y.grad_fn.next_functions[0][0].next_functions)
y.backward()
print(v.grad)
print(a.grad)
try:
    v.mul_(2)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    v.mul_(2)
print(a)
b = a * 1
with torch.no_grad():
    u = b[1]
print(u.requires_grad, u.is_leaf, u.grad_fn)
try:
    u.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
z = u.view(2)
print(z.requires_grad, z.grad_fn.name())
x = torch.ones(3)
with torch.no_grad():
    xv = x[:2]
print(xv.requires_grad, xv.is_leaf)
