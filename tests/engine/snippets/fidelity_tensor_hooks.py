import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.retain_grad()
z = y.sum()
hx = x.register_hook(lambda g: print("x hook", g))
hy = y.register_hook(lambda g: g * 10)
z.backward()
print(x.grad, y.grad)
hx.remove()
x.grad.zero_()
y = x * x
y.register_hook(lambda g: None)
y.sum().backward()
print(x.grad)
a = torch.tensor(2.0, requires_grad=True)
b = a * 3
b.register_hook(lambda g: print("b grad", g))
c = b ** 2
c.grad_fn.register_hook(lambda gi, go: print("node hook", gi, go))
c.grad_fn.register_prehook(lambda go: print("prehook", go))
c.backward()
print(a.grad)
try:
    torch.tensor([1.0]).register_hook(lambda g: g)
except RuntimeError as e:
    print(e)
