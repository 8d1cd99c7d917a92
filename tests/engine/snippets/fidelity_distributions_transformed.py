import math

import torch
from torch.distributions import LogNormal, Normal, TransformedDistribution, Uniform
from torch.distributions.transforms import AffineTransform, ComposeTransform, ExpTransform, SigmoidTransform, TanhTransform

torch.manual_seed(0)
loc = torch.tensor([0.0, 1.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5], requires_grad=True)
ln = LogNormal(loc, scale)
print(ln, ln.batch_shape, ln.event_shape, ln.support, ln.has_rsample, ln.base_dist)
z = ln.rsample((2,))
print(z, z.grad_fn, z.grad_fn.next_functions)
lp = ln.log_prob(torch.tensor([0.5, 3.0]))
print(lp, lp.grad_fn)
(z.sum() + lp.sum() + ln.entropy().sum()).backward()
print(loc.grad, scale.grad)
print(ln.mean, ln.mode, ln.variance, ln.entropy(), ln.cdf(torch.tensor([1.0, 2.0])), ln.icdf(torch.tensor([0.5, 0.1])))
print(LogNormal(0.0, 1.0).sample((3,)), ln.expand((3, 2)).sample().shape)
t = ExpTransform()
x = torch.tensor([0.0, 1.0])
print(t, t(x), t.inv(torch.tensor([1.0, 4.0])), t.inv, t.log_abs_det_jacobian(x, t(x)), t.sign, t.domain, t.codomain, t.bijective)
a = AffineTransform(1.0, 2.0)
print(a(x), a.inv(torch.tensor([3.0])), a.log_abs_det_jacobian(x, a(x)), a.sign, a == AffineTransform(1.0, 2.0))
aff = AffineTransform(torch.tensor([0.0, 1.0]), torch.tensor([2.0, -3.0]), event_dim=1)
print(aff.log_abs_det_jacobian(torch.ones(3, 2), torch.ones(3, 2)), aff.sign, aff.domain, aff.event_dim)
c = ComposeTransform([AffineTransform(0.0, 2.0), SigmoidTransform()])
print(c, c(x), c.inv(c(x)), c.log_abs_det_jacobian(x, c(x)), c.domain, c.codomain, c.inv)
th = TanhTransform()
print(th(x), th.inv(torch.tensor([0.5])), th.log_abs_det_jacobian(x, th(x)), th.codomain)
w = torch.tensor([0.5], requires_grad=True)
d = TransformedDistribution(Normal(torch.zeros(2), torch.ones(2)), [AffineTransform(w, 3.0), TanhTransform()])
print(d, d.batch_shape, d.event_shape, d.support, d.has_rsample)
s = d.rsample((2,))
print(s, s.grad_fn)
lp = d.log_prob(torch.tensor([0.2, -0.4]))
print(lp, lp.grad_fn)
(s.sum() + lp.sum()).backward()
print(w.grad)
logistic = TransformedDistribution(Uniform(0.0, 1.0), [SigmoidTransform().inv, AffineTransform(1.0, 2.0)])
print(logistic.sample((4,)), logistic.log_prob(torch.tensor([0.5, 2.0])), logistic.cdf(torch.tensor(1.0)), logistic.icdf(torch.tensor(0.25)))
rev = TransformedDistribution(Normal(0.0, 1.0), AffineTransform(0.0, -1.0))
print(rev.cdf(torch.tensor(1.0)), rev.icdf(torch.tensor(0.3)))
for bad in [lambda: LogNormal(0.0, -1.0), lambda: ln.log_prob(torch.tensor([-1.0, 1.0])), lambda: TransformedDistribution(Normal(0.0, 1.0), "exp"), lambda: TransformedDistribution(Normal(0.0, 1.0), [1])]:
    try:
        bad()
    except ValueError as err:
        print(err)
