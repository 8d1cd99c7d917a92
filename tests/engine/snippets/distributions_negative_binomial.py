# NegativeBinomial: draws as a Poisson of a Gamma from PyTorch's stream, probs or logits,
# log_prob (and its gradient), mean, mode, variance and expand
import torch
from torch.distributions import NegativeBinomial

torch.manual_seed(0)
print(NegativeBinomial(3.0, torch.tensor([0.5])).sample((2,)))
n = torch.tensor([1.0, 4.0, 10.0])
p = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)
d = NegativeBinomial(n, probs=p)
print(d, d.batch_shape, d.event_shape, d.support, d.arg_constraints, d.has_rsample, d.param_shape)
print(d.sample((2,)), d.sample().dtype)
lp = d.log_prob(torch.tensor([0.0, 3.0, 50.0]))
print(lp, lp.grad_fn)
lp.sum().backward()
print(p.grad)
print(d.mean, d.mode, d.variance, d.logits)
lg = NegativeBinomial(torch.tensor([2.0, 0.0]), logits=torch.tensor([0.3, -1.0]))
print(lg.probs, lg.mean, lg.log_prob(torch.tensor([1.0, 0.0])), lg.sample((3,)))
e = d.expand((4, 3))
print(type(e).__name__, e.batch_shape, e.sample().shape, e.total_count.shape, e.log_prob(torch.ones(4, 3)).shape)
print(NegativeBinomial(5.0, probs=torch.tensor([0.3], dtype=torch.float64)).sample((3,)))
for attempt in (lambda: NegativeBinomial(2.0), lambda: NegativeBinomial(2.0, probs=torch.tensor([1.5])), lambda: NegativeBinomial(2.0, probs=torch.tensor([0.5]), validate_args=True).log_prob(torch.tensor([0.5]))):
    try:
        attempt()
    except ValueError as err:
        print(err)
print(type(d).__module__)
