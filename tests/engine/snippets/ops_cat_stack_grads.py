import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = torch.cat([a, b, a])
s = torch.stack([a, a * 2])
(c * torch.arange(5.0)).sum().backward()
print(c, c.grad_fn, a.grad, b.grad)
s.sum().backward()
print(s, s.grad_fn, a.grad)
print(
    torch.cat([a.detach(), torch.tensor([1, 2])]), torch.stack([torch.tensor(1), torch.tensor(2)])
)
