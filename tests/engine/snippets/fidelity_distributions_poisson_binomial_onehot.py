import torch
from torch.distributions import Binomial, OneHotCategorical, Poisson

torch.manual_seed(0)
rate = torch.tensor([0.5, 4.0, 20.0], requires_grad=True)
p = Poisson(rate)
print(p, p.support, p.has_rsample, p.mean, p.mode, p.variance)
s = p.sample((2,))
print(s, s.dtype, s.requires_grad)
lp = p.log_prob(torch.tensor([0.0, 3.0, 18.0]))
print(lp, lp.grad_fn)
lp.sum().backward()
print(rate.grad)
print(Poisson(3.0).sample((5,)), Poisson(torch.tensor([[1.0], [30.0]])).sample().shape)
for bad in [lambda: Poisson(-1.0), lambda: p.log_prob(torch.tensor([0.5, 1.0, 1.0])), lambda: p.log_prob(torch.tensor([-1.0, 1.0, 1.0]))]:
    try:
        bad()
    except ValueError as err:
        print(err)
probs = torch.tensor([0.1, 0.5, 0.9, 0.3], requires_grad=True)
b = Binomial(10, probs)
print(b, b.batch_shape, b.support, b.total_count, b.mean, b.mode, b.variance)
print(b.sample(), b.sample((2,)))
print(Binomial(torch.tensor([5.0, 100.0, 1000.0]), torch.tensor([0.2, 0.7, 0.45])).sample((3,)))
lp = b.log_prob(torch.tensor([1.0, 5.0, 9.0, 10.0]))
print(lp, lp.grad_fn)
(lp.sum() + b.entropy().sum()).backward()
print(probs.grad, b.entropy())
logits = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
bl = Binomial(4, logits=logits)
print(bl, bl.probs, bl.log_prob(torch.tensor([0.0, 2.0, 4.0])), bl.enumerate_support().shape)
bl.log_prob(torch.tensor([1.0, 1.0, 3.0])).sum().backward()
print(logits.grad)
print(Binomial(3, torch.tensor([0.5, 0.5])).expand((2, 2)).sample())
for bad in [lambda: Binomial(10, torch.tensor([1.5])), lambda: Binomial(-1, torch.tensor([0.5])), lambda: Binomial(2.5, torch.tensor([0.5])), lambda: Binomial(10), lambda: b.log_prob(torch.tensor([11.0, 1.0, 1.0, 1.0]))]:
    try:
        bad()
    except ValueError as err:
        print(err)
pr = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], requires_grad=True)
oh = OneHotCategorical(pr)
print(oh, oh.batch_shape, oh.event_shape, oh.support, oh.probs, oh.logits)
s = oh.sample()
print(s, s.dtype, oh.sample((2,)).shape)
lp = oh.log_prob(s)
print(lp, lp.grad_fn, oh.entropy(), oh.mean, oh.mode, oh.variance)
(lp.sum() + oh.entropy().sum()).backward()
print(pr.grad)
lg = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
ol = OneHotCategorical(logits=lg)
print(ol, ol.sample((4,)), ol.enumerate_support())
ol.log_prob(torch.tensor([0.0, 1.0, 0.0])).backward()
print(lg.grad)
for bad in [lambda: OneHotCategorical(torch.tensor([0.5, -0.5, 1.0])), lambda: ol.log_prob(torch.tensor([1.0, 1.0, 0.0])), lambda: OneHotCategorical()]:
    try:
        bad()
    except ValueError as err:
        print(err)
