import torch

x = torch.tensor(3.0, requires_grad=True)
loss = x * 2
loss.mul_(0.5)
loss.add_(1)
print(loss, loss.grad_fn.name())
loss.backward()
print(x.grad)
total = torch.tensor(0.0)
for v in [1.0, 2.0, 3.5]:
    total += torch.tensor(v) * 2
print(total)
s = torch.ones(3).sum()
s.clamp_(max=2.0)
print(s)
m = torch.tensor([1.0, 5.0]).mean() * 1
m.zero_()
print(m, m.fill_(4.0), (m / 0).nan_to_num_(posinf=9.0))
