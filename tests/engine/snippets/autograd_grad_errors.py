import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
try:
    torch.autograd.grad(y, x)
except RuntimeError as err:
    print("RuntimeError", err)
try:
    torch.autograd.grad(y.sum(), x, grad_outputs=torch.ones(3))
except RuntimeError as err:
    print("RuntimeError", err)
try:
    torch.autograd.grad(torch.tensor(1.0), x)
except RuntimeError as err:
    print("RuntimeError", err)
s = y.sum()
torch.autograd.grad(s, x)
torch.autograd.grad(s, x)
