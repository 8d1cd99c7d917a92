import torch

w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = w * 1
y[1:3] = 0
y.sum().backward()
print(y, y.grad_fn, w.grad)
w.grad = None
z = w.clone()
z[torch.tensor([0, 3])] *= 10
z.sum().backward()
print(z, z.grad_fn, w.grad)
m = torch.zeros(2, 3)
m[0, 1] = 5
m[1] += 1
m[:, 2] = torch.tensor([7.0, 8.0])
print(m)
a = torch.arange(6.0)
a[2:4].zero_()
a.view(2, 3)[1] += 1
print(a)
