import torch

x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
    with torch.enable_grad():
        z = x * 2
print(y.requires_grad, z.requires_grad)
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x * 2).requires_grad)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
print(torch.is_grad_enabled())


@torch.no_grad()
def f(t):
    return t * 2


@torch.enable_grad()
def g(t):
    return t * 2


print(f(x).requires_grad)
with torch.no_grad():
    print(g(x).requires_grad)


@torch.set_grad_enabled(False)
def h(t):
    return t * 2


print(h(x).requires_grad, torch.is_grad_enabled())
with torch.no_grad():
    w = x + 1
print(w.grad_fn, w.is_leaf)
