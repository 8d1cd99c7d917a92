import torch
from torch.distributions import Exponential, Laplace

torch.manual_seed(0)
rate = torch.tensor([0.5, 2.0], requires_grad=True)
e = Exponential(rate)
print(e, e.batch_shape, e.event_shape, e.support, e.arg_constraints, e.has_rsample)
z = e.rsample((3,))
print(z, z.grad_fn)
lp = e.log_prob(torch.tensor([1.0, 0.25]))
print(lp, lp.grad_fn)
(z.sum() + lp.sum() + e.entropy().sum()).backward()
print(rate.grad)
print(e.mean, e.mode, e.stddev, e.variance, e.entropy())
print(e.cdf(torch.tensor([1.0, 1.0])), e.icdf(torch.tensor([0.5, 0.9])))
print(Exponential(3.0).sample(), Exponential(1.0).sample((2, 2)))
x = e.expand((4, 2))
print(x, x.batch_shape, x.sample().shape)
loc = torch.tensor([0.0, 1.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5], requires_grad=True)
la = Laplace(loc, scale)
print(la, la.support, la.mean, la.mode, la.variance, la.stddev)
s = la.rsample((2,))
print(s, s.grad_fn)
lp = la.log_prob(torch.tensor([0.5, 0.5]))
print(lp, lp.grad_fn, la.entropy())
(s.sum() + lp.sum()).backward()
print(loc.grad, scale.grad)
print(la.cdf(torch.tensor([0.5, 2.0])), la.icdf(torch.tensor([0.25, 0.75])))
print(Laplace(0.0, 1.0).sample((5,)))
print(Laplace(torch.zeros(2, dtype=torch.float64), 1.0).sample())
for bad in [lambda: Exponential(-1.0), lambda: Exponential(torch.tensor([1.0, 0.0])), lambda: Laplace(0.0, 0.0)]:
    try:
        bad()
    except ValueError as err:
        print(err)
try:
    e.log_prob(torch.tensor([-1.0, 1.0]))
except ValueError as err:
    print(err)
try:
    e.log_prob(torch.ones(3))
except ValueError as err:
    print(err)
try:
    e.log_prob(1.0)
except ValueError as err:
    print(err)
print(Exponential(-1.0, validate_args=False).log_prob(torch.tensor(1.0)))
