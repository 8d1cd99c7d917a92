import torch

x = torch.tensor([-1.0, -0.5, 0.0, 0.5, 1.0], requires_grad=True)
print(torch.erf(x), torch.erfc(x), torch.sinc(x), x.sgn(), x.sign())
(torch.erf(x) + torch.sinc(x)).sum().backward()
print(x.grad)
print(torch.sinc(torch.tensor([0.0, 1.0, 2.5])), torch.erf(torch.tensor([3.0, -3.0])))
