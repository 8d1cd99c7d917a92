import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
print(x.cumsum(1), torch.cumprod(x, 0), torch.cummax(x, 1), torch.logcumsumexp(x, 1))
x.cumsum(dim=1).sum().backward()
print(x.grad)
print(torch.tensor([1, 2, 3]).cumsum(0).dtype, torch.tensor([True, True]).cumsum(0))
