import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.add_(1)
y.mul_(3)
print(y, y.grad_fn, y._version)
y.sum().backward()
print(x.grad)
z = x.clone()
z.clamp_(min=1.5)
z.floor_()
z.sum().backward()
print(z, z.grad_fn, x.grad)
w = x * 1
w.relu_()
w.sigmoid_()
print(w.grad_fn)
