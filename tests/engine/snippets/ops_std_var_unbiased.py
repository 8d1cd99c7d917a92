import torch

x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]])
print(x.std(), x.std(dim=1), x.std(dim=1, unbiased=False), x.var(dim=0, keepdim=True))
print(torch.std(x, dim=1, correction=2), torch.var(x, 1), x.std(0).grad_fn)
w = x.clone().requires_grad_()
w.std(dim=1).sum().backward()
print(w.grad)
