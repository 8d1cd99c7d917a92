import torch

x = torch.tensor([0.2, 0.7], requires_grad=True)
print(torch.special.expit(x), torch.special.logit(x))
print(torch.special.softmax(x, 0), torch.special.log_softmax(x, dim=0))
print(torch.special.xlogy(x, x), torch.special.erf(x), torch.special.expm1(x), torch.special.exp2(x))
print(torch.special.logsumexp(x, 0), torch.special.sinc(x), torch.special.round(x * 10))
(torch.special.expit(x) * torch.special.logit(x)).sum().backward()
print(x.grad)
