import torch
from torch import nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

x = torch.tensor([1.0, 2.0], requires_grad=True)


def f(a):
    return (a * a).sin()


y = checkpoint(f, x, use_reentrant=False)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
x.grad = None
y2 = checkpoint(f, x, use_reentrant=True)
print(y2, y2.grad_fn.name())
y2.sum().backward()
print(x.grad)
seq = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
for p in seq.parameters():
    nn.init.constant_(p, 0.3)
inp = torch.tensor([[1.0, -1.0]], requires_grad=True)
out = checkpoint_sequential(seq, 2, inp, use_reentrant=False)
out.sum().backward()
print(out, inp.grad, seq[0].weight.grad)
