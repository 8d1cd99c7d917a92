import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print(dy, dy.grad_fn)
(d2y,) = torch.autograd.grad(dy, x, create_graph=True)
print(d2y, d2y.grad_fn)
(d3y,) = torch.autograd.grad(d2y, x)
print(d3y)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.sin() * x).sum()
g = torch.autograd.grad(y, x, create_graph=True)[0]
print(g)
g.sum().backward()
print(x.grad)
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
out = a * a * b
ga, gb = torch.autograd.grad(out, [a, b], create_graph=True)
print(ga, gb)
print(torch.autograd.grad(ga, b))
z = torch.tensor(3.0, requires_grad=True)
w = torch.tensor(4.0, requires_grad=True)
print(torch.autograd.grad(z * 2, [z, w], allow_unused=True))
print(torch.autograd.grad(z * 2, [z, w], allow_unused=True, materialize_grads=True))
try:
    torch.autograd.grad(z * 2, [z, w])
except RuntimeError as e:
    print(e)
