import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
print(y.retains_grad)
z = (y * y).sum()
z.backward()
print(y.grad)
print(x.grad)
y2 = x.exp()
y2.retain_grad()
y2.retain_grad()
(y2 * 2).sum().backward()
print(y2.grad)
x.retain_grad()
print(x.retains_grad)
