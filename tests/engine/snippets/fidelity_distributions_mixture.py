import torch
from torch.distributions import (
    Categorical, Independent, MixtureSameFamily, MultivariateNormal, Normal, constraints,
)

torch.manual_seed(0)
logits = torch.tensor([0.0, 1.0, -0.5], requires_grad=True)
loc = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)
scale = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
gmm = MixtureSameFamily(Categorical(logits=logits), Normal(loc, scale))
print(gmm)
print(gmm.batch_shape, gmm.event_shape, gmm.support, gmm.has_rsample, gmm.arg_constraints)
print(gmm.mixture_distribution, gmm.component_distribution)
s = gmm.sample((5,))
print(s, s.requires_grad)
lp = gmm.log_prob(torch.tensor([-2.0, 0.5, 3.0]))
print(lp, lp.grad_fn)
m, v = gmm.mean, gmm.variance
print(m, v, gmm.stddev, gmm.cdf(torch.tensor([0.0, 1.0])))
(lp.sum() + m + v).backward()
print(logits.grad, loc.grad, scale.grad)
comp = Independent(Normal(torch.randn(4, 3, 2), torch.rand(4, 3, 2) + 0.5), 1)
mix2 = MixtureSameFamily(Categorical(torch.rand(4, 3)), comp)
print(mix2.batch_shape, mix2.event_shape, mix2.support, mix2.sample().shape, mix2.sample((2,)).shape)
print(mix2.log_prob(torch.zeros(4, 2)), mix2.mean.shape, mix2.variance.shape)
mix3 = MixtureSameFamily(Categorical(torch.ones(3)), Independent(Normal(torch.randn(4, 3, 2), 1.0), 1))
print(mix3.batch_shape, mix3.mean.shape, mix3.variance)
mvn = MultivariateNormal(torch.randn(3, 2), scale_tril=torch.eye(2).expand(3, 2, 2))
mix4 = MixtureSameFamily(Categorical(torch.tensor([0.2, 0.3, 0.5])), mvn)
print(mix4.batch_shape, mix4.event_shape, mix4.sample((3,)), mix4.log_prob(torch.zeros(2)))
x = gmm.expand((2, 4))
print(x, x.batch_shape, x.component_distribution.batch_shape, x.mixture_distribution.batch_shape, x.sample().shape)
print(x.log_prob(torch.zeros(2, 4)).shape)
c = constraints.MixtureSameFamilyConstraint(constraints.positive)
print(c, c.event_dim, c.is_discrete, c.check(torch.tensor([[1.0, -1.0], [2.0, 3.0]])))
c2 = constraints.MixtureSameFamilyConstraint(constraints.real_vector)
print(c2, c2.event_dim, c2.check(torch.tensor([[1.0, float("nan")], [2.0, 3.0]])))
for bad in [
    lambda: MixtureSameFamily(Normal(0.0, 1.0), Normal(loc, scale)),
    lambda: MixtureSameFamily(Categorical(torch.ones(3)), 5),
    lambda: MixtureSameFamily(Categorical(torch.ones(2)), Normal(loc, scale)),
    lambda: MixtureSameFamily(Categorical(torch.ones(2, 3)), Normal(torch.zeros(4, 3), 1.0)),
]:
    try:
        bad()
    except ValueError as err:
        print(err)
try:
    constraints.MixtureSameFamilyConstraint(3)
except AssertionError as err:
    print(err)
try:
    MixtureSameFamily(Categorical(torch.ones(2)), Normal(torch.zeros(2), torch.ones(2)), validate_args=True).log_prob(torch.ones(3))
except ValueError as err:
    print(err)
