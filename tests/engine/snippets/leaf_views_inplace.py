import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
try:
    x[0] = 5.0
except RuntimeError as err:
    print("RuntimeError", err)
y = x.clone()
y[0] = 5.0
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
v = x.view(3)
try:
    v.mul_(2)
except RuntimeError as err:
    print("RuntimeError", err)
