import torch

x = torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 2.7, -2.7])
print(torch.round(x), x.floor(), x.ceil(), x.trunc(), torch.fix(x), x.frac())
print(torch.round(torch.tensor([1.2345, 2.3456]), decimals=2))
print(torch.round(torch.tensor([1234.5, 5678.0]), decimals=-2))
print(torch.tensor([1, -2]).floor(), torch.tensor([3, 4], dtype=torch.int32).round())
y = x.clone()
y.round_()
print(y, x.sign(), x.sgn(), torch.signbit(torch.tensor([-0.0, 0.0, -1.0])))
w = torch.tensor([0.4, 1.6], requires_grad=True)
r = w.round() + w.floor() + w.ceil()
r.sum().backward()
print(r, r.grad_fn, w.grad)
