import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
d = y.detach()
print(d, d.requires_grad, d.is_leaf, d.grad_fn)
d[0] = 10.0
print(y)
y2 = x * 3
y2.detach_()
print(y2, y2.requires_grad, y2.grad_fn, y2.is_leaf)
print(x.detach().requires_grad_())
z = x.exp()
zd = z.detach()
zd.zero_()
try:
    z.sum().backward()
except RuntimeError as err:
    print("RuntimeError", err)
