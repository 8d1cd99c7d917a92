import torch

x = torch.tensor([1.0, 2.0])
try:
    x.sum().backward()
except RuntimeError as err:
    print("RuntimeError", err)
y = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    z = (y * 2).sum()
print(z.requires_grad, z.grad_fn)
z.backward()
