import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
z = y.sum()
z.backward(retain_graph=True)
print(x.grad)
z.backward()
print(x.grad)
try:
    z.backward()
except RuntimeError as e:
    print(e)
a = torch.tensor(2.0, requires_grad=True)
b = a * a
c = b * 3
c.backward()
try:
    b.backward()
except RuntimeError as e:
    print(e)
p = torch.tensor(1.0, requires_grad=True)
q = p + 1
q.backward()
q.backward()
print(p.grad)
s = torch.tensor([1.0, 2.0], requires_grad=True)
out = s * 2
try:
    out.backward()
except RuntimeError as e:
    print(e)
out.backward(torch.tensor([1.0, 0.5]))
print(s.grad)
try:
    torch.tensor(1.0).backward()
except RuntimeError as e:
    print(e)
