# a 0-d bool tensor as an index: a new dim (kept or emptied); `x[m] = v` writes through that view (CopySlices) and keeps nothing of m, so changing m afterwards leaves the gradients alone
import torch

x = torch.arange(6.0).view(2, 3).requires_grad_()
y = x * 1
for m in [torch.tensor(True), torch.tensor(False)]:
    print(y[m].shape, y[m].grad_fn, y[..., m].shape, y[0, m], y[m, 1])
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
s = a * torch.ones(2, 2)
m = torch.tensor(True)
s[m] = (b * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).unsqueeze(0)
m[m.clone()] = torch.tensor([False])
print(s, s.grad_fn, m)
s.sum().backward()
print(a.grad, b.grad)
z = torch.zeros(3)
z[torch.tensor(False)] = 7.0
z[torch.tensor(True), 1] = 2.0
print(z)
