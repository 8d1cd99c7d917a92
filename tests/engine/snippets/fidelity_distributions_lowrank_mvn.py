import torch
from torch.distributions import LowRankMultivariateNormal, MultivariateNormal, kl_divergence

torch.manual_seed(0)
loc = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
W = torch.tensor([[1.0, 0.5], [0.2, -0.3], [0.0, 1.0]], requires_grad=True)
D = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
d = LowRankMultivariateNormal(loc, W, D)
print(d, d.batch_shape, d.event_shape, d.support, d.arg_constraints, d.has_rsample)
s = d.rsample((2,))
print(s, s.grad_fn)
lp = d.log_prob(torch.tensor([[0.5, 1.0, -1.0], [0.0, 0.0, 0.0]]))
print(lp, lp.grad_fn)
print(d._capacitance_tril, d._capacitance_tril.grad_fn)
(s.sum() + lp.sum() + d.entropy()).backward()
print(loc.grad, W.grad, D.grad)
print(d.mean, d.mode, d.variance, d.entropy())
print(d.covariance_matrix, d.precision_matrix, d.scale_tril)
full = MultivariateNormal(loc.detach(), covariance_matrix=d.covariance_matrix.detach())
print(full.log_prob(torch.tensor([0.5, 1.0, -1.0])), full.entropy())
b = LowRankMultivariateNormal(torch.zeros(2, 3), torch.ones(3, 1), torch.ones(2, 3))
print(b, b.batch_shape, b.cov_factor.shape, b._unbroadcasted_cov_factor.shape, b.sample((4,)).shape)
print(b.log_prob(torch.zeros(5, 2, 3)).shape, b.log_prob(torch.ones(3)), b.entropy(), b.variance)
x = d.expand((2,))
print(x, x.batch_shape, x.loc.shape, x.cov_factor.shape, x.cov_diag.shape, x.rsample().shape, x.log_prob(torch.zeros(3)))
try:
    torch.broadcast_tensors(torch.zeros(3), torch.zeros(1, 3), torch.zeros(2, 1, 4))
except RuntimeError as err:
    print(err)
for bad in [
    lambda: LowRankMultivariateNormal(torch.tensor(0.0), W, D),
    lambda: LowRankMultivariateNormal(loc, torch.ones(3), D),
    lambda: LowRankMultivariateNormal(loc, torch.ones(2, 1), D),
    lambda: LowRankMultivariateNormal(loc, W, torch.ones(2)),
    lambda: LowRankMultivariateNormal(torch.zeros(2, 3), torch.ones(3, 3, 1), torch.ones(3)),
    lambda: LowRankMultivariateNormal(loc, W, torch.tensor([1.0, -1.0, 1.0])),
]:
    try:
        bad()
    except ValueError as err:
        print(err)
try:
    d.log_prob(torch.ones(2))
except ValueError as err:
    print(err)
m = MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]]))
print(m.support, m.arg_constraints)
e = m.expand((3, 2))
print(e, e.batch_shape, e.loc.shape, e.scale_tril.shape, e.covariance_matrix.shape, e.sample().shape, e.log_prob(torch.ones(2)).shape)
mc = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.3], [0.3, 1.0]]))
ec = mc.expand((2,))
print("covariance_matrix" in ec.__dict__, "scale_tril" in ec.__dict__, ec.covariance_matrix, ec.entropy())
try:
    m.log_prob(torch.tensor([float("nan"), 0.0]))
except ValueError as err:
    print(err)
try:
    MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, -2.0]]))
except ValueError as err:
    print(err)
bm = MultivariateNormal(torch.zeros(4, 2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]]))
print(bm.log_prob(torch.randn(3, 1, 2)), bm.log_prob(torch.randn(4, 2)))
q_lr = LowRankMultivariateNormal(torch.ones(3), torch.tensor([[0.5], [1.0], [-0.5]]), torch.tensor([2.0, 1.0, 1.0]))
q_mvn = MultivariateNormal(torch.ones(3), scale_tril=torch.tensor([[1.0, 0.0, 0.0], [0.2, 1.5, 0.0], [-0.3, 0.1, 0.8]]))
d = LowRankMultivariateNormal(loc, W, D)
for p_, q_ in [(d, q_lr), (d, q_mvn), (full, q_lr), (full, q_mvn)]:
    k = kl_divergence(p_, q_)
    print(type(p_).__name__, type(q_).__name__, k, k.grad_fn)
d = LowRankMultivariateNormal(loc, W, D)
k = kl_divergence(d, q_lr) + kl_divergence(d, q_mvn)
W.grad = None
k.backward()
print(W.grad)
print(kl_divergence(b, LowRankMultivariateNormal(torch.ones(3), torch.ones(3, 2), torch.ones(3))))
try:  # (PyTorch's own shape bug: cov_diag batched but cov_factor not)
    print(kl_divergence(b, MultivariateNormal(torch.ones(2, 3), torch.eye(3))))
except RuntimeError as err:
    print(err)
print(kl_divergence(MultivariateNormal(torch.zeros(2, 3), torch.eye(3)), q_lr))
try:
    kl_divergence(d, LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2)))
except ValueError as err:
    print(err)
try:
    kl_divergence(full, LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2)))
except ValueError as err:
    print(err)
