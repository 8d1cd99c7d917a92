import torch

x = torch.arange(6.0).reshape(2, 3)
print(x.masked_fill(x > 2, -1.0), x.clone().masked_fill_(torch.tensor([True, False, True]), 0))
print(
    torch.where(x > 2, x, torch.zeros_like(x)), torch.where(x > 2, x, 0.0), torch.where(x > 2, 1, 0)
)
print(torch.where(x > 2))
print(x.where(x < 3, torch.tensor(9.0)), torch.where(torch.tensor([True, False]), 1.5, 2))
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = w.masked_fill(w < 0, 0.0)
z = torch.where(w > 0, w**2, -w)
(y.sum() + z.sum()).backward()
print(y.grad_fn, z.grad_fn, w.grad)
try:
    torch.where(torch.tensor([1, 0]), x[0, :2], x[1, :2])
except RuntimeError as e:
    print(e)
