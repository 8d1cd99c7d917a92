import torch
from torch import nn

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    lin.bias.zero_()


def bhook(module, grad_input, grad_output):
    print("grad_input", grad_input)
    print("grad_output", grad_output)


def bpre(module, grad_output):
    print("pre grad_output", grad_output)


h = lin.register_full_backward_hook(bhook)
hp = lin.register_full_backward_pre_hook(bpre)
x = torch.tensor([[1.0, -1.0]], requires_grad=True)
out = lin(x)
print(out.grad_fn.name())
out.sum().backward()
print(x.grad)
h.remove()
hp.remove()


def scale(module, grad_input, grad_output):
    return (grad_input[0] * 10,)


lin.register_full_backward_hook(scale)
x2 = torch.tensor([[1.0, -1.0]], requires_grad=True)
lin(x2).sum().backward()
print(x2.grad)
for p in lin.parameters():
    p.register_hook(lambda g: g * 0)
lin.zero_grad()
lin(x2).sum().backward()
print(lin.weight.grad, lin.bias.grad)
