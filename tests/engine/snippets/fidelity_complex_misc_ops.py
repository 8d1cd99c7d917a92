# More ops on complex tensors: complex bases, statistics, masks and conversions.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (1.5 + 0.5j) ** x
print(y, y.grad_fn.name())
torch.view_as_real(y).sum().backward()
print(x.grad)
z = torch.tensor([1 + 1j, 2 - 1j, 0.5j], requires_grad=True)
s = z.std()
v = z.var(dim=0, keepdim=True)
print(s, v)
(s + v.sum()).backward()
print(z.grad)
print(torch.tensor([1j, 2]).std(unbiased=False), z.prod(), z.cumprod(0), z.cumsum(0))
print(torch.isreal(z), torch.isreal(torch.ones(2)), torch.tensor([1 + 0j, 1j]).isreal())
print(z.masked_fill(torch.tensor([True, False, True]), 5j), torch.tensor([0j, 1j]).nonzero())
print(torch.tensor([1, 2.5, 3j]), torch.count_nonzero(torch.tensor([0j, 1j, 2])))
print(z.detach().square(), z.detach().tan(), z.detach().sinh(), z.detach().log2())
for dt in (torch.float64, torch.bool, torch.int32):
    try:
        print(torch.tensor([1j], dtype=dt))
    except TypeError as e:
        print(dt, e)
torch.tensor([1j], dtype=torch.float32)
