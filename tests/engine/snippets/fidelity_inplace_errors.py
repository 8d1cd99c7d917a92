import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    w += 1
except RuntimeError as e:
    print(e)
try:
    w[0] = 5.0
except RuntimeError as e:
    print(e)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.sigmoid()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print(e)
c = a * 1
d = c.exp()
c.add_(1)
d.sum().backward()
print(a.grad)
e = a * 2
f = e ** 2
e.zero_()
try:
    f.sum().backward()
except RuntimeError as err:
    print(err)
print(e._version, a._version)
with torch.no_grad():
    w += 1
print(w, w._version)
v = w.view(2)
try:
    v.add_(1)
except RuntimeError as e:
    print(e)
try:
    w.data.add_(1)
    print(w)
    torch.relu_(w)
except RuntimeError as e:
    print(e)
