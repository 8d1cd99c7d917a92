import torch
from torch.distributions import Bernoulli, Categorical, OneHotCategorical, Uniform

torch.manual_seed(0)
b = Bernoulli(torch.tensor([0.2, 0.5, 0.9]))
print(b.mean, b.mode, b.variance, b.stddev, b.param_shape, b.support, b.has_enumerate_support)
print(b.enumerate_support(), b.enumerate_support(False).shape, b.perplexity())
e = b.expand((2, 3))
print(e, e.batch_shape, e.sample(), e.probs.shape)
bl = Bernoulli(logits=torch.tensor([0.0, 3.0])).expand((4, 2))
print(bl, bl.logits.shape, bl.sample().shape)
c = Categorical(torch.tensor([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]]))
print(c.mean, c.mode, c.variance, c.param_shape, c.support, c.enumerate_support(), c.enumerate_support(False).shape)
ce = c.expand((4, 2))
print(ce, ce.batch_shape, ce.sample(), ce.log_prob(torch.tensor([0, 2])).shape)
print(Categorical(logits=torch.zeros(4)).expand((3,)).sample((2,)))
oh = OneHotCategorical(torch.tensor([0.3, 0.7])).expand((3,))
print(oh, oh.batch_shape, oh.event_shape, oh.sample(), oh.param_shape)
u = Uniform(torch.tensor([0.0, 1.0]), torch.tensor([2.0, 5.0]))
print(u.support, u.mode, u.variance, u.stddev, u.cdf(torch.tensor([1.0, 6.0 - 1.5])), u.icdf(torch.tensor([0.5, 0.25])))
print(u.expand((3, 2)).sample())
for bad in [lambda: b.log_prob(torch.tensor([0.5, 1.0, 0.0])), lambda: c.log_prob(torch.tensor([3, 0])), lambda: u.log_prob(torch.tensor([3.0, 2.0]))]:
    try:
        bad()
    except ValueError as err:
        print(err)
