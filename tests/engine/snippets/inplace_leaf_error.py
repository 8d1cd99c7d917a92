import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    x.add_(1)
except RuntimeError as err:
    print("RuntimeError", err)
with torch.no_grad():
    x.add_(1)
print(x)
try:
    x += 1
except RuntimeError as err:
    print("RuntimeError", err)
x.data.mul_(2)
print(x, x._version)
x.mul_(2)
