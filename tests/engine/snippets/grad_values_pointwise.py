import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
for fn in [
    "exp",
    "log",
    "sqrt",
    "sin",
    "cos",
    "tanh",
    "sigmoid",
    "relu",
    "abs",
    "rsqrt",
    "reciprocal",
    "neg",
    "sign",
]:
    x.grad = None
    getattr(x, fn)().sum().backward()
    print(fn, x.grad)
z = torch.tensor([0.0, -1.0, 1.0], requires_grad=True)
z.relu().sum().backward()
print(z.grad)
z.grad = None
z.abs().sum().backward()
print(z.grad)
z.grad = None
z.clamp(-1, 1).sum().backward()
print(z.grad)
z.grad = None
(z * 0).sqrt().sum().backward()
print(z.grad)
