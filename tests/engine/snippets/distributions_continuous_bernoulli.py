# ContinuousBernoulli: rsample by the inverse CDF of PyTorch's rand draws, probs or logits,
# log_prob, cdf/icdf, moments and entropy (Taylor expansions near 1/2), expand, KL
import torch
from torch.distributions import ContinuousBernoulli, kl_divergence

torch.manual_seed(0)
print(ContinuousBernoulli(0.3).sample((2,)))
p = torch.tensor([0.2, 0.4995, 0.9], requires_grad=True)
d = ContinuousBernoulli(probs=p)
print(d, d.batch_shape, d.event_shape, d.support, d.arg_constraints, d.has_rsample, d.param_shape)
s = d.rsample((2,))
print(s, s.grad_fn)
lp = d.log_prob(torch.tensor([0.1, 0.5, 0.7]))
print(lp, lp.grad_fn)
(s.sum() + lp.sum() + d.entropy().sum()).backward()
print(p.grad)
print(d.mean, d.variance, d.stddev, d.entropy(), d.logits)
print(d.cdf(torch.tensor([0.1, 0.5, 0.7])), d.icdf(torch.tensor([0.1, 0.5, 0.9])))
lg = ContinuousBernoulli(logits=torch.tensor([0.3, -2.0]))
print(lg.probs, lg.mean, lg.log_prob(torch.tensor([0.25, 0.75])), lg.sample((3,)), lg.entropy())
e = d.expand((4, 3))
print(type(e).__name__, e.batch_shape, e.sample().shape, e.probs.shape, e.log_prob(torch.full((4, 3), 0.5)).shape)
print(ContinuousBernoulli(torch.tensor([0.3], dtype=torch.float64)).sample((3,)))
print(kl_divergence(ContinuousBernoulli(torch.tensor([0.2, 0.7])), ContinuousBernoulli(torch.tensor([0.6, 0.5]))))
for attempt in (lambda: ContinuousBernoulli(), lambda: ContinuousBernoulli(torch.tensor([1.5]), validate_args=True), lambda: ContinuousBernoulli(0.3, validate_args=True).log_prob(torch.tensor([1.5]))):
    try:
        attempt()
    except ValueError as err:
        print(err)
print(type(d).__module__)
