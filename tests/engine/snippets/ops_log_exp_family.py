import torch

x = torch.tensor([0.5, 1.0, 2.0, 8.0], requires_grad=True)
print(x.log(), x.log2(), x.log10(), x.log1p(), x.exp(), x.exp2(), x.expm1())
print(torch.logaddexp(x, x.flip(0)), torch.xlogy(x, x), x.sigmoid())
(x.log2() + x.log10() + x.exp2()).sum().backward()
print(x.grad)
print(torch.logit(torch.tensor([0.25, 0.5, 0.75])), torch.logit(torch.tensor([0.0, 1.0]), eps=1e-6))
