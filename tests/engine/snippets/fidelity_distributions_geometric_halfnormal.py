import torch
from torch.distributions import Geometric, HalfNormal
from torch.distributions.transforms import AbsTransform

torch.manual_seed(0)
p = torch.tensor([0.2, 0.5, 1.0], requires_grad=True)
g = Geometric(p)
print(g, g.batch_shape, g.support, g.arg_constraints, g.has_rsample, g.logits)
s = g.sample((4,))
print(s, s.dtype, s.requires_grad)
lp = g.log_prob(torch.tensor([0.0, 2.0, 0.0]))
print(lp, lp.grad_fn)
ent = g.entropy()
print(ent, ent.grad_fn)
(lp.sum() + g.mean[:2].sum() + g.variance[:2].sum()).backward()
print(p.grad)
print(g.mean, g.mode, g.variance)
lg = Geometric(logits=torch.tensor([-1.0, 0.5]))
print(lg, lg.probs, lg.sample((3,)), lg.entropy(), lg.log_prob(torch.tensor([1.0, 3.0])))
print(Geometric(0.3).sample((5,)), Geometric(torch.tensor([0.7], dtype=torch.float64)).sample())
x = g.expand((2, 3))
print(x, x.batch_shape, x.sample().shape, "logits" in x.__dict__)
x = lg.expand((3, 2))
print(x.batch_shape, "probs" in x.__dict__, x.probs)
for bad in [lambda: Geometric(torch.tensor([0.0, 0.5])), lambda: Geometric(1.5), lambda: Geometric(), lambda: Geometric(0.5, 0.5)]:
    try:
        bad()
    except ValueError as err:
        print(err)
try:
    g.log_prob(torch.tensor([0.5, 1.0, 1.0]))
except ValueError as err:
    print(err)
scale = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
h = HalfNormal(scale)
print(h, h.batch_shape, h.support, h.arg_constraints, h.has_rsample, h.transforms, h.base_dist)
r = h.rsample((2,))
print(r, r.grad_fn)
lp = h.log_prob(torch.tensor([0.5, 0.0, 3.0]))
print(lp, lp.grad_fn)
(r.sum() + lp.sum() + h.entropy().sum()).backward()
print(scale.grad)
print(h.mean, h.mode, h.variance, h.stddev, h.entropy())
print(h.cdf(torch.tensor([0.5, 1.0, 1.0])), h.icdf(torch.tensor([0.25, 0.5, 0.9])))
print(HalfNormal(2.0).sample((3,)), HalfNormal(torch.ones(2, dtype=torch.float64)).sample())
y = h.expand((2, 3))
print(type(y).__name__, y.batch_shape, y.base_dist.batch_shape, y.scale, y.sample().shape)
print(HalfNormal(1.0, validate_args=False).log_prob(torch.tensor([-1.0, 1.0])))
try:
    HalfNormal(-1.0)
except ValueError as err:
    print(err)
try:
    h.log_prob(torch.tensor([-1.0, 1.0, 1.0]))
except ValueError as err:
    print(err)
a = AbsTransform()
print(a, a(torch.tensor([-2.0, 3.0])), a.inv(torch.tensor([2.0])), a == AbsTransform(), a.bijective, a.domain, a.codomain)
