import torch
import torch.nn.functional as F

# silu's backward is a composite in ATen: under create_graph its gradient is the graph of
# grad * sigmoid(x) * (1 + x * (1 - sigmoid(x))), as PyTorch composes it
torch.manual_seed(0)
x = torch.randn(2, 5, dtype=torch.float64, requires_grad=True)


def chain(fn, depth=0):
    if fn is None or depth > 5:
        return ["  " * depth + str(fn and "...")]
    out = ["  " * depth + fn.name()]
    for n, _ in fn.next_functions:
        out += chain(n, depth + 1)
    return out


for f in (F.silu, torch.nn.SiLU()):
    y = f(x)
    (g,) = torch.autograd.grad((y * y.detach().cos()).pow(2).sum(), x, create_graph=True)
    print(g)
    print("\n".join(chain(g.grad_fn)))
    (h,) = torch.autograd.grad(g.pow(2).sum(), x, create_graph=True)
    print(h.detach())
    print(torch.autograd.grad(h.pow(2).sum(), x)[0])
x32 = torch.linspace(-3, 3, 7, requires_grad=True)
(g,) = torch.autograd.grad(F.silu(x32).sum(), x32, create_graph=True)
print(g, torch.autograd.grad(g.sum(), x32)[0])
