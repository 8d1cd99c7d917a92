# Kumaraswamy: draws from PyTorch's stream (a transformed Uniform), rsample gradients, log_prob,
# moments (mode is nan below concentration 1), entropy and expand
import torch
from torch.distributions import Kumaraswamy

torch.manual_seed(0)
print(Kumaraswamy(2.0, 3.0).sample((2,)))
a = torch.tensor([2.0, 0.7, 5.0], requires_grad=True)
b = torch.tensor([3.0, 1.5, 0.5], requires_grad=True)
k = Kumaraswamy(a, b)
print(k, k.batch_shape, k.event_shape, k.support, k.arg_constraints, k.has_rsample)
s = k.rsample((2,))
print(s, s.grad_fn)
lp = k.log_prob(torch.tensor([0.5, 0.1, 0.9]))
print(lp, lp.grad_fn)
(s.sum() + lp.sum() + k.entropy().sum()).backward()
print(a.grad, b.grad)
print(k.mean, k.mode, k.variance, k.stddev, k.entropy())
print(k.cdf(torch.tensor([0.5, 0.2, 0.7])), k.icdf(torch.tensor([0.1, 0.5, 0.9])))
e = k.expand((4, 3))
print(type(e).__name__, e.batch_shape, e.sample().shape, e.concentration1.shape, e.log_prob(torch.full((4, 3), 0.5)).shape)
print(Kumaraswamy(torch.tensor([2.0], dtype=torch.float64), 1.5).sample((3,)))
print(Kumaraswamy(1.0, 1.0).log_prob(torch.tensor([0.25, 0.75])), Kumaraswamy(2.0, 3.0).entropy(), Kumaraswamy(2.0, 3.0).mode)
try:
    Kumaraswamy(1.0, -1.0)
except ValueError as err:
    print(err)
print(type(k).__module__)
