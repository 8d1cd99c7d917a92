import torch
from torch.distributions import Independent, Normal, Bernoulli, MultivariateNormal
torch.manual_seed(0)
loc = torch.zeros(4, 3, requires_grad=True)
scale = torch.ones(4, 3)
d = Independent(Normal(loc, scale), 1)
print(d, d.batch_shape, d.event_shape, d.has_rsample)
x = d.rsample((2,))
lp = d.log_prob(x)
print(x.shape, lp, lp.grad_fn)
lp.sum().backward()
print(loc.grad)
print(d.entropy(), d.mean.shape, d.variance.shape, d.sample().shape)
d2 = Independent(Normal(torch.zeros(2, 3, 4), torch.ones(2, 3, 4)), 2)
print(d2.batch_shape, d2.event_shape, d2.log_prob(torch.zeros(2, 3, 4)))
print(Independent(Bernoulli(probs=torch.full((3,), 0.3)), 1).log_prob(torch.tensor([1.0, 0.0, 1.0])))
print(Independent(Normal(torch.zeros(3), torch.ones(3)), 0).batch_shape)
print(Independent(MultivariateNormal(torch.zeros(5, 2), torch.eye(2)), 1))
try:
    Independent(Normal(torch.zeros(3), torch.ones(3)), 2)
except ValueError as e:
    print(e)
