import torch

x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn)


@torch.no_grad()
def f(t):
    return t * 2


print(f(x).requires_grad)
with torch.no_grad():  # noqa: SIM117
    with torch.enable_grad():
        print((x * 2).requires_grad)
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((x + 1).requires_grad)
with torch.inference_mode():
    z = x * 2
print(z.requires_grad, z.is_inference(), torch.is_inference_mode_enabled())
