import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn, torch.is_grad_enabled())
with torch.no_grad():
    with torch.enable_grad():
        z = x * 2
print(z.requires_grad, z.grad_fn)
with torch.inference_mode():
    w = x * 3
print(w.requires_grad, w.is_inference(), x.is_inference())
try:
    w.requires_grad_()
except RuntimeError as e:
    print(e)


@torch.no_grad()
def f(t):
    return t * t


print(f(x).requires_grad)
torch.set_grad_enabled(False)
print((x * 1).requires_grad)
torch.set_grad_enabled(True)
print((x * 1).requires_grad)
with torch.set_grad_enabled(False):
    print((x + 1).requires_grad)
print(torch.is_inference_mode_enabled())
with torch.inference_mode(mode=False):
    print((x * 1).requires_grad)
try:
    (w * x).sum().backward()
except RuntimeError as e:
    print(e)
