import torch
from torch.distributions import Bernoulli, Categorical, Independent, Normal

torch.manual_seed(0)
loc = torch.zeros(3, 2, requires_grad=True)
d = Independent(Normal(loc, torch.ones(3, 2)), 1)
print(d, d.support, d.has_enumerate_support, d.mode, d.batch_shape, d.event_shape)
x = d.expand((4, 3))
print(x, x.batch_shape, x.event_shape, x.base_dist.batch_shape, x.support)
s = x.rsample()
print(s.shape, s.grad_fn, x.log_prob(torch.zeros(2)).shape, x.entropy().shape)
print(x.sample((2,)).shape)
b = Independent(Bernoulli(torch.tensor([[0.2, 0.8], [0.5, 0.5]])), 0)
print(b, b.has_enumerate_support, b.enumerate_support(), b.enumerate_support(expand=False).shape, b.support, b.mode)
b1 = Independent(Bernoulli(torch.tensor([[0.2, 0.8], [0.5, 0.5]])), 1)
print(b1.has_enumerate_support, b1.support, b1.support.event_dim)
try:
    b1.enumerate_support()
except NotImplementedError as err:
    print(err)
c = Independent(Categorical(torch.ones(2, 3)), 1)
print(c.support, c.support.event_dim, c.support.is_discrete, c.expand((5, 1)).batch_shape if False else c.expand(()).batch_shape)
nested = Independent(Independent(Normal(torch.zeros(2, 3, 4), 1.0), 1), 1)
print(nested, nested.event_shape, nested.support, nested.expand((5, 2)).base_dist.base_dist.batch_shape)
print(nested.expand((5, 2)).log_prob(torch.zeros(3, 4)).shape)
