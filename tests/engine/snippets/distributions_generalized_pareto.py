# GeneralizedPareto: draws (icdf of a uniform), rsample gradients, log_prob/cdf/icdf/survival on both sides of concentration 0, moments, its dependent support, expand, validation errors
import torch
from torch.distributions import GeneralizedPareto, kl_divergence

def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

torch.manual_seed(0)
loc = torch.tensor([0.1, 0.0, 1.0, -1.0], requires_grad=True)
scale = torch.tensor([2.0, 1.0, 0.5, 1.5], requires_grad=True)
conc = torch.tensor([0.4, 0.0, -0.5, 1.2], requires_grad=True)
g = GeneralizedPareto(loc, scale, conc)
print(g, type(g), g.batch_shape, g.event_shape, g.support, g.has_rsample, g.arg_constraints)
s = g.rsample((3,))
s.sum().backward()
print(s, loc.grad, scale.grad, conc.grad)
v = torch.tensor([0.5, 0.3, 1.5, 0.0])
lp = g.log_prob(v)
print(lp, g.cdf(v), g.log_cdf(v), g.log_survival_function(v), g.icdf(torch.tensor([0.1, 0.5, 0.9, 0.99])))
loc.grad, scale.grad, conc.grad = None, None, None
lp.sum().backward()
print(loc.grad, scale.grad, conc.grad)
print(g.mean, g.variance, g.entropy(), g.mode, g.stddev)
show(lambda: g.log_prob(torch.tensor([0.0, 0.3, 1.5, 0.0])))
show(lambda: g.log_prob(torch.tensor([0.5, 0.3, 3.5, 0.0])))
show(lambda: GeneralizedPareto(0.0, -1.0, 0.0))
g2 = GeneralizedPareto(0.0, 1.0, 0.5)
print(g2, g2.batch_shape, g2.sample(), g2.sample((2,)), g2.mean, g2.variance, g2.entropy())
e = g2.expand([3])
print(e, e.batch_shape, e.sample(), e.loc)
print(GeneralizedPareto(torch.tensor(0.0), 1.0, 0.0).batch_shape, GeneralizedPareto(0.0, 1.0, 1e-9).log_prob(torch.tensor(1.0)))
print(GeneralizedPareto(0.0, 1.0, -1.0).sample((4,)), GeneralizedPareto(0.0, 1.0, -1.0).support)
show(lambda: kl_divergence(g2, g2))
