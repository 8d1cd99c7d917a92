# Gumbel: draws from PyTorch's stream (a transformed Uniform), rsample gradients, log_prob,
# moments, entropy, expand, and the KL pairs PyTorch registers for it
import torch
from torch.distributions import Gumbel
torch.manual_seed(0)
print(Gumbel(0.0, 1.0).sample((2,)))
loc = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5, 3.0], requires_grad=True)
g = Gumbel(loc, scale)
print(g, g.batch_shape, g.event_shape, g.support, g.arg_constraints, g.has_rsample)
s = g.rsample((2,))
print(s, s.grad_fn)
lp = g.log_prob(torch.tensor([0.5, -1.0, 4.0]))
print(lp, lp.grad_fn)
(s.sum() + lp.sum() + g.entropy().sum()).backward()
print(loc.grad, scale.grad)
print(g.mean, g.mode, g.stddev, g.variance, g.entropy())
print(g.cdf(torch.tensor([0.0, 1.0, 2.0])), g.icdf(torch.tensor([0.1, 0.5, 0.9])))
e = g.expand((4, 3))
print(type(e).__name__, e.batch_shape, e.sample().shape, e.loc.shape, e.log_prob(torch.zeros(4, 3)).shape)
print(Gumbel(torch.tensor([0.0], dtype=torch.float64), 2.0).sample((3,)))
print(Gumbel(1.0, 2.0).log_prob(torch.tensor([1.0, 3.0])), Gumbel(1.0, 2.0).entropy())
try:
    Gumbel(0.0, -1.0)
except ValueError as err:
    print(err)
print(torch.distributions.kl_divergence(Gumbel(0.0, 1.0), Gumbel(1.0, 2.0)))
from torch.distributions import Normal, Exponential, Gamma, Uniform, Beta, kl_divergence as kl
q = Gumbel(torch.tensor([0.5, -1.0]), torch.tensor([2.0, 0.7]))
for p in (Gumbel(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 3.0])), Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])), Exponential(torch.tensor([1.0, 2.0])), Gamma(torch.tensor([2.0, 0.5]), torch.tensor([1.0, 3.0])), Uniform(torch.tensor([0.0, -1.0]), torch.tensor([1.0, 2.0]))):
    print(type(p).__name__, kl(p, q))
for r in (Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])), Exponential(torch.tensor([1.0, 2.0])), Gamma(torch.tensor([2.0, 0.5]), torch.tensor([1.0, 3.0])), Uniform(torch.tensor([0.0, -1.0]), torch.tensor([1.0, 2.0])), Beta(torch.tensor([2.0, 1.0]), torch.tensor([1.0, 2.0]))):
    print(type(r).__name__, kl(q, r))
print(type(g).__module__, type(g).__qualname__)
