import torch
from torch.distributions import RelaxedBernoulli, RelaxedOneHotCategorical
from torch.distributions.relaxed_bernoulli import LogitRelaxedBernoulli
from torch.distributions.relaxed_categorical import ExpRelaxedCategorical

torch.manual_seed(0)
temp = torch.tensor(0.7, requires_grad=True)
probs = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)
rb = RelaxedBernoulli(temp, probs)
print(rb, rb.batch_shape, rb.support, rb.arg_constraints, rb.has_rsample, rb.base_dist, rb.temperature)
print(rb.base_dist.has_rsample, rb.base_dist.support, rb.base_dist.param_shape, rb.logits)
s = rb.rsample((2,))
print(s, s.grad_fn)
lp = rb.log_prob(torch.tensor([0.1, 0.5, 0.95]))
print(lp, lp.grad_fn)
(s.sum() + lp.sum()).backward()
print(temp.grad, probs.grad)
lrb = LogitRelaxedBernoulli(torch.tensor(2.0), logits=torch.tensor([[0.0, 1.0]]))
print(lrb, lrb.probs, lrb.rsample((3,)), lrb.log_prob(torch.tensor([0.5, -1.0])))
x = rb.expand((2, 3))
print(type(x).__name__, x.batch_shape, x.base_dist.batch_shape, x.sample().shape, x.temperature)
y = lrb.expand((4, 2))
print(y.batch_shape, "probs" in y.__dict__, y.logits.shape, y.temperature)
print(RelaxedBernoulli(torch.tensor(0.1), logits=torch.tensor([-2.0, 2.0])).sample((4,)))
for bad in [lambda: RelaxedBernoulli(torch.tensor(1.0)), lambda: RelaxedBernoulli(torch.tensor(1.0), torch.tensor([1.5]))]:
    try:
        bad()
    except ValueError as err:
        print(err)
try:
    rb.log_prob(torch.tensor([0.0, 1.5, 0.5]))
except ValueError as err:
    print(err)
temp = torch.tensor([0.5, 2.0], requires_grad=True)
logits = torch.tensor([[0.0, 1.0, -1.0], [2.0, 0.5, 0.0]], requires_grad=True)
rc = RelaxedOneHotCategorical(temp.unsqueeze(-1), logits=logits)
print(rc, rc.batch_shape, rc.event_shape, rc.support, rc.has_rsample, rc.base_dist, rc.probs)
s = rc.rsample()
print(s, s.grad_fn, rc.sample((2,)).shape)
lp = rc.log_prob(torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]]))
print(lp, lp.grad_fn)
(s[:, 0].sum() + lp.sum()).backward()
print(temp.grad, logits.grad)
ec = ExpRelaxedCategorical(torch.tensor(1.0), torch.tensor([0.25, 0.75]))
z = ec.rsample((3,))
print(ec, ec.support, ec.param_shape, z, ec.log_prob(z), z.exp().sum(-1))
x = rc.expand((2,))
print(type(x).__name__, x.batch_shape, x.event_shape, x.base_dist._categorical.batch_shape)
e2 = ec.expand((3,))
print(e2.batch_shape, e2.temperature, e2.probs)
print(RelaxedOneHotCategorical(torch.tensor(0.3), torch.tensor([0.1, 0.2, 0.7])).sample((2,)))
for bad in [lambda: RelaxedOneHotCategorical(torch.tensor(1.0)), lambda: RelaxedOneHotCategorical(torch.tensor(1.0), torch.tensor(0.5))]:
    try:
        bad()
    except ValueError as err:
        print(err)
try:
    rc.log_prob(torch.tensor([[0.2, 0.3, 0.6], [0.6, 0.3, 0.1]]))
except ValueError as err:
    print(err)
