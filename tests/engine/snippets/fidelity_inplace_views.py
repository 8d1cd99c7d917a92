import torch

leaf = torch.zeros(3, requires_grad=True)
try:
    leaf[1:].add_(1)
except RuntimeError as e:
    print(e)
x = torch.ones(4, requires_grad=True)
y = x * 2
v = y[:2]
v.mul_(3)
print(y, y.grad_fn, v.grad_fn)
y.sum().backward()
print(x.grad)
a = torch.ones(2, 2, requires_grad=True) * 1
parts = a.unbind(0)
try:
    parts[0].add_(1)
except RuntimeError as e:
    print(e)
s = a.split(1)
try:
    s[0].mul_(2)
except RuntimeError as e:
    print(e)
with torch.no_grad():
    vv = a[0]
try:
    vv.add_(1)
    print(a)
except RuntimeError as e:
    print(e)
t = torch.ones(3, requires_grad=True).clone()
t[0] = 5
print(t, t.grad_fn)
u = torch.arange(4.0, requires_grad=True) * 1
u.relu_()
u.sigmoid_()
print(u.grad_fn, u._version)
d = u.detach()
d.zero_()
try:
    u.sum().backward()
except RuntimeError as e:
    print(e)
