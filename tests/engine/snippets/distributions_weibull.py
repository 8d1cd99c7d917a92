# Weibull: draws from PyTorch's stream (a transformed Exponential), rsample gradients, log_prob,
# moments, entropy and expand
import torch
from torch.distributions import Weibull

torch.manual_seed(0)
print(Weibull(1.0, 2.0).sample((2,)))
scale = torch.tensor([1.0, 0.5, 3.0], requires_grad=True)
k = torch.tensor([2.0, 0.7, 5.0], requires_grad=True)
w = Weibull(scale, k)
print(w, w.batch_shape, w.event_shape, w.support, w.arg_constraints, w.has_rsample)
s = w.rsample((2,))
print(s, s.grad_fn)
lp = w.log_prob(torch.tensor([0.5, 1.0, 4.0]))
print(lp, lp.grad_fn)
(s.sum() + lp.sum() + w.entropy().sum()).backward()
print(scale.grad, k.grad)
print(w.mean, w.mode, w.variance, w.stddev, w.entropy())
print(w.cdf(torch.tensor([0.5, 1.0, 2.0])), w.icdf(torch.tensor([0.1, 0.5, 0.9])))
e = w.expand((4, 3))
print(type(e).__name__, e.batch_shape, e.sample().shape, e.concentration.shape, e.log_prob(torch.ones(4, 3)).shape)
print(Weibull(torch.tensor([2.0], dtype=torch.float64), 1.5).sample((3,)))
print(Weibull(1.0, 1.0).log_prob(torch.tensor([1.0, 3.0])), Weibull(2.0, 3.0).entropy())
try:
    Weibull(1.0, -1.0)
except ValueError as err:
    print(err)
try:
    Weibull(1.0, 2.0, validate_args=True).log_prob(torch.tensor([-1.0]))
except ValueError as err:
    print(err)
print(type(w).__module__)
