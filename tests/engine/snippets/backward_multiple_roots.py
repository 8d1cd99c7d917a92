import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x * 2
b = x.exp()
torch.autograd.backward([a, b], [torch.ones(2), torch.tensor([0.5, 0.5])])
print(x.grad)
x.grad = None
torch.autograd.backward((a.sum(), b.sum()), retain_graph=False)
print(x.grad)
print(torch.autograd.grad([a.sum() * 0 + (x * x).sum()], x))
