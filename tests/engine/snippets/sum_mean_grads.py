import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
s = x.sum()
m = x.mean()
print(s, m)
print(s.grad_fn.name(), m.grad_fn.name())
(s + m).backward()
print(x.grad)
x.grad = None
r = x.sum(dim=1)
print(r, r.grad_fn.name())
r.backward(torch.tensor([1.0, 2.0]))
print(x.grad)
k = x.sum(0, keepdim=True)
print(k.shape, k.grad_fn.name())
print(x.mean(dim=0))
