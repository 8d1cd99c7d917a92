import torch, torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(3, 2)


def hook(m, gi, go):
    print(
        type(m).__name__,
        [None if g is None else tuple(g.shape) for g in gi],
        [tuple(g.shape) for g in go],
    )


h = lin.register_backward_hook(hook)
x = torch.randn(4, 3, requires_grad=True)
out = lin(x)
print(out.grad_fn.name())
out.sum().backward()
try:
    lin.register_full_backward_hook(hook)
except RuntimeError as e:
    print(e)
h.remove()
lin(x).sum().backward()
seq = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
seq.register_backward_hook(hook)
seq(x).sum().backward()


def double(m, gi, go):
    return tuple(None if g is None else g * 2 for g in gi)


relu = nn.ReLU()
relu.register_backward_hook(double)
y = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
relu(y).sum().backward()
print(y.grad)
from torch.nn.modules.module import (
    register_module_backward_hook,
    register_module_full_backward_hook,
)

g = register_module_backward_hook(hook)
try:
    nn.Tanh()(y).sum().backward()
except RuntimeError as e:
    print(e)
tanh = nn.Tanh()
tanh(y).sum().backward()
try:
    register_module_full_backward_hook(hook)
except RuntimeError as e:
    print(e)
g.remove()
full = register_module_full_backward_hook(hook)
nn.Tanh()(y).sum().backward()
full.remove()
