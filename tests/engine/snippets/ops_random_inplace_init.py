import torch

x = torch.zeros(2, 3).uniform_()
print(x.shape, bool(((x >= 0) & (x < 1)).all()), x.dtype)
x = torch.empty(1000).uniform_(-2, 2)
print(bool(x.min() >= -2), bool(x.max() < 2), x.unique().numel() > 900)
x = torch.empty(5, 5).normal_(mean=3, std=0.001)
print(bool((x - 3).abs().max() < 0.1), x.shape)
x = torch.empty(100).random_(0, 5)
print(bool(x.min() >= 0), bool(x.max() < 5), x.dtype, torch.equal(x, x.floor()))
print(torch.empty(3, dtype=torch.int64).random_(3, 4))
print(torch.empty(4).fill_(0.5).bernoulli_(1.0), bool((torch.empty(50).exponential_() > 0).all()))
w = torch.zeros(3, requires_grad=True)
try:
    w.uniform_()
except RuntimeError as e:
    print(e)
with torch.no_grad():
    w.uniform_(-1, 1)
print(w.requires_grad, w.is_leaf, w._version, bool((w.abs() <= 1).all()))
print((w * 2).normal_().grad_fn, (w * 2).uniform_().grad_fn)
torch.manual_seed(0)
a = torch.rand(3)
torch.manual_seed(0)
b = torch.rand(3)
print(
    torch.equal(a, b),
    torch.randn(2, 3).shape,
    torch.randint(0, 10, (4,)).dtype,
    torch.randperm(5).sort().values,
)
