import torch
from torch.distributions import Multinomial
from torch.distributions import constraints

torch.manual_seed(0)
probs = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], requires_grad=True)
m = Multinomial(5, probs)
print(m, m.batch_shape, m.event_shape, m.support, m.arg_constraints, m.has_rsample, m.param_shape)
s = m.sample()
print(s, s.dtype)
print(m.sample((2,)).shape, m.sample((3,)))
lp = m.log_prob(torch.tensor([[1.0, 1.0, 3.0], [5.0, 0.0, 0.0]]))
print(lp, lp.grad_fn)
ent = m.entropy()
print(ent, ent.grad_fn)
(lp.sum() + ent.sum() + m.mean.sum() + m.variance.sum()).backward()
print(probs.grad)
print(m.mean, m.variance, m.probs, m.logits)
lg = Multinomial(3, logits=torch.tensor([0.0, -1.0, 2.0, 0.5]))
print(lg, lg.probs, lg.sample((2,)), lg.entropy(), lg.log_prob(torch.tensor([0.0, 0.0, 3.0, 0.0])))
zero = Multinomial(2, logits=torch.tensor([0.0, -float("inf")]))
print(zero.log_prob(torch.tensor([2.0, 0.0])))
x = m.expand((4, 2))
print(x, x.batch_shape, x.event_shape, x.sample().shape, x.total_count)
try:
    x.entropy()
except AttributeError as err:
    print(err)
print(constraints.multinomial(3), constraints.multinomial(3).check(torch.tensor([[1.0, 2.0], [2.0, 2.0], [-1.0, 1.0]])))
print(constraints.multinomial(3).event_dim, constraints.multinomial(3).is_discrete)
for bad in [lambda: Multinomial(torch.tensor(3), torch.tensor([0.5, 0.5])), lambda: Multinomial(2, torch.tensor([-0.5, 1.5])), lambda: Multinomial(2)]:
    try:
        bad()
    except (ValueError, NotImplementedError) as err:
        print(type(err).__name__, err)
for bad_value in [torch.tensor([[1.0, 1.0, 1.0], [5.0, 0.0, 0.0]]), torch.tensor([[-1.0, 3.0, 3.0], [5.0, 0.0, 0.0]]), torch.ones(2, 2)]:
    try:
        m.log_prob(bad_value)
    except ValueError as err:
        print(err)
