import torch
from torch.distributions import Dirichlet, Normal, TransformedDistribution
from torch.distributions.transforms import (
    ComposeTransform, ExpTransform, IndependentTransform, PowerTransform, ReshapeTransform,
    SoftmaxTransform, StickBreakingTransform,
)

x = torch.tensor([[0.5, -1.0, 2.0], [0.0, 0.0, 0.0]], requires_grad=True)
for t in [SoftmaxTransform(), StickBreakingTransform()]:
    y = t(x)
    print(t, y, y.grad_fn, t.domain, t.codomain, t.bijective, t.domain.event_dim, t.codomain.event_dim)
    print(t.inv(y), t.forward_shape((2, 3)), t.inverse_shape((2, 4)), t == type(t)(), t.inv)
sb = StickBreakingTransform()
y = sb(x)
ld = sb.log_abs_det_jacobian(x, y)
print(ld, ld.grad_fn)
(y * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().add(ld.sum()).backward()
print(x.grad)
print(sb.inv.log_abs_det_jacobian(y, x), sb.inv(torch.tensor([0.2, 0.3, 0.5])), sb.event_dim)
try:
    sb.forward_shape(())
except ValueError as err:
    print(err)
p = PowerTransform(torch.tensor([2.0, 0.5]))
v = torch.tensor([1.5, 4.0], requires_grad=True)
w = p(v)
print(p, w, w.grad_fn, p.sign, p.inv(w), p.log_abs_det_jacobian(v, w), p.domain, p.codomain, p.bijective)
print(p == PowerTransform(torch.tensor([2.0, 0.5])), p == PowerTransform(2.0), p.forward_shape((3, 2)), p.with_cache().exponent)
p3 = PowerTransform(3.0)
print(p3.exponent, p3.sign, p3(torch.tensor([2.0])), p3.inv(torch.tensor([8.0])))
it = IndependentTransform(ExpTransform(), 1)
z = torch.tensor([[0.0, 1.0], [2.0, -1.0]])
print(it, it(z), (it.inv(it(z)) - z).abs().max() < 1e-6, it.log_abs_det_jacobian(z, it(z)), it.domain, it.codomain, it.bijective, it.sign, it.event_dim)
print(it.with_cache(1), it.forward_shape((2, 2)))
try:
    it(torch.tensor(1.0))
except ValueError as err:
    print(err)
r = ReshapeTransform((2, 3), (6,))
a = torch.arange(12.0).reshape(2, 2, 3)
print(r, r(a).shape, r.inv(r(a)).shape, r.log_abs_det_jacobian(a, r(a)), r.domain, r.codomain, r.bijective)
print(r.forward_shape((5, 2, 3)), r.inverse_shape((4, 6)), r.in_shape, r.out_shape)
for bad in [lambda: ReshapeTransform((2, 3), (5,)), lambda: r.forward_shape((2, 2)), lambda: r.forward_shape((3,)), lambda: r.inverse_shape((2, 5))]:
    try:
        bad()
    except ValueError as err:
        print(err)
torch.manual_seed(0)
d = TransformedDistribution(Normal(torch.zeros(2), torch.ones(2)), [StickBreakingTransform()])
s = d.sample((2,))
print(d, d.batch_shape, d.event_shape, s, d.log_prob(s))
td = TransformedDistribution(Normal(torch.zeros(4), torch.ones(4)), [ReshapeTransform((4,), (2, 2))])
print(td.batch_shape, td.event_shape, td.sample().shape, td.log_prob(torch.ones(2, 2)))
ct = ComposeTransform([StickBreakingTransform(), PowerTransform(2.0)])
print(ct, ct.domain, ct.codomain, ct(torch.zeros(2)))
