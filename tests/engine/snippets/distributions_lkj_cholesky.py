# LKJCholesky: onion-method draws of correlation Cholesky factors, log_prob and its gradients (concentration, and the factor through CorrCholeskyTransform), batches, expand, errors
import torch
from torch.distributions import LKJCholesky, constraints, kl_divergence
from torch.distributions.transforms import CorrCholeskyTransform

def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

torch.manual_seed(0)
l = LKJCholesky(3, 0.5)
print(l, type(l), l.batch_shape, l.event_shape, l.support, l.has_rsample, l.dim, l.concentration, l.arg_constraints)
x = l.sample()
print(x, x @ x.T, l.log_prob(x), constraints.corr_cholesky.check(x))
c = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
l2 = LKJCholesky(4, c)
xs = l2.sample((2,))
lp = l2.log_prob(xs)
lp.sum().backward()
print(xs.shape, xs[1, 2], lp, c.grad)
v = torch.randn(6, requires_grad=True)
lv = LKJCholesky(4, 1.5).log_prob(CorrCholeskyTransform()(v))
lv.backward()
print(lv, v.grad)
e = l2.expand([2, 3])
print(e, e.batch_shape, e.sample().shape, e.log_prob(xs).shape, e.concentration)
print(LKJCholesky(2).sample((3,)), LKJCholesky(2).log_prob(torch.eye(2)))
show(lambda: LKJCholesky(1))
show(lambda: LKJCholesky(2, -1.0))
show(lambda: l.log_prob(torch.eye(3) * 2))
show(lambda: l.rsample())
show(lambda: kl_divergence(l, l))
