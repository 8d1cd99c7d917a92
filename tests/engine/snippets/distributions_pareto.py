# Pareto: draws from PyTorch's stream (a transformed Exponential), rsample gradients, log_prob,
# moments (inf where they do not exist), entropy, expand, support and the KL pairs PyTorch has
import torch
from torch.distributions import Beta, Exponential, Gamma, Gumbel, Laplace, Normal, Pareto, Uniform
from torch.distributions import kl_divergence as kl

torch.manual_seed(0)
print(Pareto(1.0, 2.0).sample((2,)))
scale = torch.tensor([1.0, 0.5, 3.0], requires_grad=True)
alpha = torch.tensor([2.5, 0.7, 5.0], requires_grad=True)
d = Pareto(scale, alpha)
print(d, d.batch_shape, d.event_shape, d.support, d.arg_constraints, d.has_rsample)
s = d.rsample((2,))
print(s, s.grad_fn)
lp = d.log_prob(torch.tensor([1.5, 1.0, 4.0]))
print(lp, lp.grad_fn)
(s.sum() + lp.sum() + d.entropy().sum()).backward()
print(scale.grad, alpha.grad)
print(d.mean, d.mode, d.variance, d.entropy())
print(d.cdf(torch.tensor([1.5, 1.0, 4.0])), d.icdf(torch.tensor([0.1, 0.5, 0.9])))
e = d.expand((4, 3))
print(type(e).__name__, e.batch_shape, e.sample().shape, e.alpha.shape, e.log_prob(torch.full((4, 3), 5.0)).shape)
print(Pareto(torch.tensor([2.0], dtype=torch.float64), 1.5).sample((3,)))
try:
    Pareto(1.0, 2.0, validate_args=True).log_prob(torch.tensor([0.5]))
except ValueError as err:
    print(err)
q = Pareto(torch.tensor([0.8, 2.0]), torch.tensor([3.0, 1.5]))
p2 = Pareto(torch.tensor([1.0, 1.0]), torch.tensor([2.0, 3.0]))
print(kl(p2, q), kl(q, p2))
for r in (Exponential(torch.tensor([1.0, 2.0])), Gamma(torch.tensor([2.0, 0.5]), torch.tensor([1.0, 3.0])), Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])), Uniform(torch.tensor([0.0, 1.0]), torch.tensor([5.0, 9.0])), Beta(torch.tensor([2.0, 1.0]), torch.tensor([1.0, 2.0]))):
    print(type(r).__name__, kl(p2, r))
for r in (Uniform(torch.tensor([1.0, 0.5]), torch.tensor([2.0, 3.0])), Exponential(torch.tensor([1.0, 2.0])), Gamma(torch.tensor([2.0, 0.5]), torch.tensor([1.0, 3.0])), Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])), Laplace(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])), Beta(torch.tensor([2.0, 1.0]), torch.tensor([1.0, 2.0])), Gumbel(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))):
    print(type(r).__name__, kl(r, p2))
print(type(d).__module__)
