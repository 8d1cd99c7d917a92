import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    y = x * 2
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(y.requires_grad, y.is_inference(), x.is_inference())
try:
    (y * x).sum().backward()
except RuntimeError as err:
    print("RuntimeError", err)
try:
    y.requires_grad_()
except RuntimeError as err:
    print("RuntimeError", err)
try:
    y.add_(1)
except RuntimeError as err:
    print("RuntimeError", err)
print((y + 1).is_inference())
c = y.clone()
print(c.is_inference())


@torch.inference_mode()
def f(t):
    return t * 2


print(f(x).requires_grad)
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled())
