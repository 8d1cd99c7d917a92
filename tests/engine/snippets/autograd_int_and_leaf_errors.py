import torch

try:
    torch.ones(2, dtype=torch.int64, requires_grad=True)
except RuntimeError as e:
    print(e)
x = torch.tensor([1, 2]).float().requires_grad_()
print(x, x.is_leaf)
u = torch.ones(1, requires_grad=True)
print(torch.autograd.grad((x * x).sum(), x, allow_unused=True))
try:
    torch.autograd.grad((x * x).sum(), [x, u])
except RuntimeError as e:
    print(e)
print(torch.autograd.grad((x * x).sum(), [x, u], allow_unused=True, materialize_grads=True))
y = x * 2
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print(e)
print(y.grad)
