import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.tensor([3.0, 4.0], requires_grad=True)
y = (x * 2).sum()
print(torch.autograd.grad(y, [x, z], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [x, z], materialize_grads=True, retain_graph=True))
try:
    torch.autograd.grad(y, [x, z], retain_graph=True)
except RuntimeError as err:
    print("RuntimeError", err)
try:
    torch.autograd.grad(y, [x, z], allow_unused=False, materialize_grads=True)
except ValueError as err:
    print("ValueError", err)
w = torch.tensor([1.0])
try:
    torch.autograd.grad((x * 2).sum(), w)
except RuntimeError as err:
    print("RuntimeError", err)
