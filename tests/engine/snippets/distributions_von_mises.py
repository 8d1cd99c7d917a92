# VonMises: Best & Fisher rejection sampling in float64 on PyTorch's rand stream, log_prob
# (with its gradient), circular mean/mode/variance, expand
import torch
from torch.distributions import VonMises

torch.manual_seed(0)
print(VonMises(torch.tensor([1.0]), torch.tensor([1.0])).sample((2,)))
loc = torch.tensor([0.0, 1.0, -2.0, 3.0], requires_grad=True)
k = torch.tensor([0.5, 4.0, 1e-6, 20.0], requires_grad=True)
d = VonMises(loc, k)
print(d, d.batch_shape, d.event_shape, d.support, d.arg_constraints, d.has_rsample)
s = d.sample((3,))
print(s, s.dtype, s.requires_grad)
lp = d.log_prob(torch.tensor([0.5, 1.0, 2.0, -3.0]))
print(lp, lp.grad_fn)
lp.sum().backward()
print(loc.grad, k.grad)
print(d.mean, d.mode, d.variance)
e = d.expand((2, 4))
print(type(e).__name__, e.batch_shape, e.sample().shape, e.loc.shape)
print(VonMises(torch.tensor([0.5], dtype=torch.float64), torch.tensor([2.0], dtype=torch.float64)).sample((3,)))
print(VonMises(torch.tensor(0.0), torch.tensor(2.0)).sample((5,)))
try:
    VonMises(torch.tensor(0.0), torch.tensor(-1.0))
except ValueError as err:
    print(err)
try:
    d.rsample()
except NotImplementedError as err:
    print("rsample", type(err).__name__, err)
print(type(d).__module__, torch.rand(2))
