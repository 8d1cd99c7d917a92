import torch

try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as err:
    print("RuntimeError", err)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as err:
    print("RuntimeError", err)
x = torch.tensor([1.0], requires_grad=True)
y = x * 2
try:
    y.requires_grad = False
except RuntimeError as err:
    print("RuntimeError", err)
y.requires_grad = True
print(y.requires_grad)
i = torch.tensor([1, 2])
i.requires_grad_(False)
print(i.requires_grad)
