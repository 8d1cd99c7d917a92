import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
with torch.no_grad():
    y.backward()
print(x.grad)
z = (x**3).sum()
with torch.no_grad():
    (g,) = torch.autograd.grad(z, x, create_graph=True)
print(g, g.requires_grad)
w = (x.exp()).sum()
with torch.inference_mode():
    w.backward()
print(x.grad)
v = x * 2
with torch.enable_grad():
    v.sum().backward()
print(x.grad, x.grad.requires_grad)
