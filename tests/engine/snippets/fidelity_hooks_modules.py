import torch
import torch.nn as nn

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    lin.bias.fill_(0.5)


def fwd(m, inp, out):
    print("forward", type(m).__name__, inp[0].shape, out)


def pre(m, inp):
    print("pre", inp)
    return (inp[0] * 2,)


def bwd(m, gin, gout):
    print("backward", gin, gout)


h1 = lin.register_forward_hook(fwd)
h2 = lin.register_forward_pre_hook(pre)
h3 = lin.register_full_backward_hook(bwd)
x = torch.tensor([[1.0, -1.0]], requires_grad=True)
out = lin(x)
print(out.grad_fn)
out.sum().backward()
print(x.grad)
h1.remove()
h2.remove()
h3.remove()
print(lin(x))
print(lin._forward_hooks, lin._backward_hooks)
