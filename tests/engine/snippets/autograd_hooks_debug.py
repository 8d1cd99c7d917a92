import torch

x = torch.ones(3, requires_grad=True)
h = x.register_hook(lambda g: g * 10)
(x * 2).sum().backward()
print(x.grad)
h.remove()
x.grad = None
(x * 2).sum().backward()
print(x.grad)
grads = {}


def save_grad(name):
    def hook(grad):
        grads[name] = grad

    return hook


y = x * 3
y.register_hook(save_grad("y"))
z = (y**2).sum()
z.backward()
print(grads["y"], y.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * a
b.register_hook(lambda g: print("hook on b:", g))
b.retain_grad()
b.sum().backward()
print(b.grad, a.grad)
