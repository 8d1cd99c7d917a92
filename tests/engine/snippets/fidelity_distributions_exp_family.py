import warnings

import torch
from torch.distributions import (
    Bernoulli, Beta, Dirichlet, Exponential, ExponentialFamily, Gamma, Normal, Poisson, Uniform,
    Categorical, kl_divergence, register_kl,
)
from torch.distributions.kl import _KL_REGISTRY

_kl_expfamily_expfamily = _KL_REGISTRY[ExponentialFamily, ExponentialFamily]

for d in [Normal(0.0, 1.0), Bernoulli(0.3), Gamma(2.0, 1.0), Exponential(1.0), Poisson(2.0), Beta(1.0, 2.0), Dirichlet(torch.ones(2)), Uniform(0.0, 1.0), Categorical(torch.ones(2))]:
    print(type(d).__name__, isinstance(d, ExponentialFamily))


class Expo(ExponentialFamily):
    arg_constraints = {}
    _mean_carrier_measure = 0

    def __init__(self, rate):
        self.rate = rate
        super().__init__(rate.shape)

    @property
    def _natural_params(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -torch.log(-x)


rate = torch.tensor([0.5, 2.0], requires_grad=True)
e = Expo(rate)
h = e.entropy()
print(h, h.grad_fn, Exponential(rate).entropy())
h.sum().backward()
print(rate.grad)
k = kl_divergence(e, Expo(torch.tensor([1.0, 1.0])))
print(k, k.grad_fn, kl_divergence(Exponential(rate), Exponential(torch.tensor([1.0, 1.0]))))
g = Gamma(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 0.5]))
g2 = Gamma(torch.tensor([1.0, 1.5]), torch.tensor([2.0, 1.0]))
print(ExponentialFamily.entropy(g), g.entropy())
print(_kl_expfamily_expfamily(g, g2), kl_divergence(g, g2))
n, n2 = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])), Normal(1.0, 3.0)
print(ExponentialFamily.entropy(n), _kl_expfamily_expfamily(n, n2), kl_divergence(n, n2))
b, b2 = Bernoulli(torch.tensor([0.2, 0.7])), Bernoulli(torch.tensor([0.5, 0.1]))
print(_kl_expfamily_expfamily(b, b2), kl_divergence(b, b2))
dd, dd2 = Dirichlet(torch.tensor([[1.0, 2.0, 3.0]])), Dirichlet(torch.tensor([[2.0, 2.0, 2.0]]))
print(dd.entropy(), _kl_expfamily_expfamily(dd, dd2), kl_divergence(dd, dd2))
print(_kl_expfamily_expfamily(Poisson(torch.tensor([2.0])), Poisson(torch.tensor([3.0]))), _kl_expfamily_expfamily(Beta(2.0, 3.0), Beta(1.0, 1.0)))
try:
    kl_divergence(e, Exponential(torch.tensor([1.0, 1.0])))
except NotImplementedError as err:
    print(err)
try:
    kl_divergence(Bernoulli(0.3), Poisson(1.0))
except NotImplementedError as err:
    print(err)


class MyNormal(Normal):
    pass


@register_kl(MyNormal, Normal)
def _left(p, q):
    return torch.tensor(1.0)


@register_kl(Normal, MyNormal)
def _right(p, q):
    return torch.tensor(2.0)


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(kl_divergence(MyNormal(0.0, 1.0), MyNormal(0.0, 1.0)))
print([(w.category.__name__, str(w.message)) for w in caught])
print(kl_divergence(MyNormal(0.0, 1.0), Normal(0.0, 1.0)), kl_divergence(Normal(0.0, 1.0), MyNormal(0.0, 1.0)))
