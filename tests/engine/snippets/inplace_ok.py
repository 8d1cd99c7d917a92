import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.add_(1)
print(y, y.grad_fn.name())
y.mul_(3)
print(y.grad_fn.next_functions[0][0].name())
y.sum().backward()
print(x.grad)
z = x + 0
z.exp_()
z.sum().backward()
print(x.grad, z._version)
