import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x.register_hook(lambda g: g * 10)
(x * 2).sum().backward()
print(x.grad)
h.remove()
x.grad = None
(x * 2).sum().backward()
print(x.grad)
y = torch.tensor([1.0, 2.0], requires_grad=True)
z = y * 3
z.register_hook(lambda g: print("z hook", g))
z.register_hook(lambda g: g + 1)
z.register_hook(lambda g: print("second", g))
z.sum().backward()
print(y.grad)
try:
    torch.tensor([1.0]).register_hook(lambda g: g)
except RuntimeError as err:
    print("RuntimeError", err)
