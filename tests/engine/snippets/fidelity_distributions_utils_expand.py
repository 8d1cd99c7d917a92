import torch
from torch.distributions import Beta, Dirichlet, Distribution, Gamma, LogNormal, Normal, Poisson
from torch.distributions.utils import broadcast_all, clamp_probs, logits_to_probs, probs_to_logits

print(probs_to_logits(torch.tensor([0.0, 0.25, 1.0])), probs_to_logits(torch.tensor([0.2, 0.9]), is_binary=True))
print(logits_to_probs(torch.tensor([0.0, 1.0])), logits_to_probs(torch.tensor([0.0, 1.0]), is_binary=True))
print(clamp_probs(torch.tensor([0.0, 1.0], dtype=torch.float64)), broadcast_all(1.0, torch.zeros(2, dtype=torch.float64)))
Distribution.set_default_validate_args(False)
print(Normal(0.0, -1.0).log_prob(torch.tensor(0.0)))
Distribution.set_default_validate_args(True)
torch.manual_seed(0)
g = Gamma(torch.tensor([1.0, 2.0]), 1.0).expand((3, 2))
print(g, g.batch_shape, g.sample().shape, g.log_prob(torch.ones(3, 2)).shape, g.perplexity())
bt = Beta(torch.tensor([2.0]), torch.tensor([3.0])).expand((2, 1))
print(bt.batch_shape, bt.sample(), bt.concentration1)
dr = Dirichlet(torch.tensor([1.0, 2.0])).expand((2,))
print(dr.batch_shape, dr.event_shape, dr.sample())
ln = LogNormal(torch.zeros(1), 1.0).expand((3,))
print(ln, ln.batch_shape, ln.base_dist.batch_shape, ln.sample())
print(Poisson(torch.tensor([1.0, 5.0])).expand((2, 2)).sample())


class MyGamma(Gamma):
    def __init__(self, c):
        super().__init__(c, 1.0)


try:
    MyGamma(torch.ones(2)).expand((3, 2))
except NotImplementedError as err:
    print(err)
try:
    Normal(0.0, 1.0).mode, Gamma(1.0, 1.0).stddev, Distribution().mode
except NotImplementedError as err:
    print(err)
