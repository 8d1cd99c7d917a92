import torch

x = torch.tensor([-2.0, -1.0, 0.0, 1.0, 2.0], requires_grad=True)
y = x.clamp(-1, 1)
y.sum().backward()
print(y, x.grad)
x.grad = None
lo = torch.tensor([0.0, 0.0, 0.0, 0.0, 0.0], requires_grad=True)
z = torch.clamp(x, min=lo)
z.sum().backward()
print(z, x.grad, lo.grad)
x.grad = None
torch.clamp_min(x, 0.5).sum().backward()
print(x.grad)
