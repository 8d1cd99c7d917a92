# CorrCholeskyTransform and constraints.corr_cholesky (and biject_to them), CumulativeDistributionTransform (a Gaussian copula), utils.tril_matrix_to_vec / vec_to_tril_matrix
import torch
from torch.distributions import Normal, TransformedDistribution, biject_to, constraints, transform_to, utils
from torch.distributions.transforms import CorrCholeskyTransform, CumulativeDistributionTransform

def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

torch.manual_seed(0)
cc = CorrCholeskyTransform()
v = torch.randn(2, 3, requires_grad=True)
L = cc(v)
ladj = cc.log_abs_det_jacobian(v, L)
(L.sum() + ladj.sum()).backward()
print(cc, type(cc), L, cc.inv(L), ladj, v.grad, cc.domain, cc.codomain, cc.bijective, cc == CorrCholeskyTransform())
print(constraints.corr_cholesky, constraints.corr_cholesky.check(L), constraints.corr_cholesky.check(torch.eye(3) * 2), constraints.corr_cholesky.event_dim)
print(cc.forward_shape((5, 6)), cc.inverse_shape((2, 4, 4)), cc(torch.zeros(1)), cc.inv(cc(torch.tensor([0.3]))))
show(lambda: cc.forward_shape((5,)))
show(lambda: cc.forward_shape(()))
show(lambda: cc.inverse_shape((3,)))
show(lambda: cc.inverse_shape((3, 4)))
print(biject_to(constraints.corr_cholesky), transform_to(constraints.corr_cholesky), biject_to(constraints.corr_cholesky)(torch.zeros(6)))
n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
ct = CumulativeDistributionTransform(n)
xx = torch.tensor([0.5, -1.0], requires_grad=True)
yy = ct(xx)
ladj = ct.log_abs_det_jacobian(xx, yy)
ladj.sum().backward()
print(ct, yy, ct.inv(yy), ladj, xx.grad, ct.domain, ct.codomain, ct.sign, ct.bijective, ct.event_dim)
print(ct.with_cache().distribution is n, ct.with_cache()._cache_size, ct.inv.domain)
copula = TransformedDistribution(Normal(0.0, 1.0), [CumulativeDistributionTransform(Normal(0.0, 1.0))])
print(copula.log_prob(torch.tensor([0.2, 0.7])), copula.sample((3,)), copula.support)
m = torch.arange(9.0).view(3, 3)
print(utils.tril_matrix_to_vec(m), utils.tril_matrix_to_vec(m, diag=-1), utils.vec_to_tril_matrix(torch.arange(6.0)))
print(utils.vec_to_tril_matrix(torch.arange(3.0), diag=-1), utils.vec_to_tril_matrix(torch.arange(4.0), diag=1))
show(lambda: utils.tril_matrix_to_vec(torch.zeros(3, 3), diag=3))
show(lambda: utils.vec_to_tril_matrix(torch.zeros(5)))
