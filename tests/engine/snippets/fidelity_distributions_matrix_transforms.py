import torch
from torch.distributions import MultivariateNormal, biject_to, constraints, transform_to
from torch.distributions.transforms import LowerCholeskyTransform, PositiveDefiniteTransform

x = torch.tensor([[0.5, 2.0, -1.0], [0.3, -0.2, 4.0], [1.0, -1.5, 0.7]], requires_grad=True)
lc = LowerCholeskyTransform()
L = lc(x)
print(lc, L, L.grad_fn, lc.domain, lc.codomain, lc.bijective, lc.event_dim, lc == LowerCholeskyTransform())
print(lc.inv(L), lc.codomain.check(L), lc.inv)
pd = PositiveDefiniteTransform()
P = pd(x)
print(pd, P, P.grad_fn, pd.domain, pd.codomain, pd.bijective, pd == PositiveDefiniteTransform(), pd == lc)
print(pd.inv(P), pd.codomain.check(P))
(L.sum() + P.sum()).backward()
print(x.grad)
for c in [constraints.lower_cholesky, constraints.positive_definite, constraints.positive_semidefinite]:
    print(c, transform_to(c), c.event_dim, c.is_discrete)
try:
    biject_to(constraints.lower_cholesky)
except NotImplementedError as err:
    print(err)
print(constraints.positive_semidefinite.check(torch.tensor([[[1.0, 0.0], [0.0, 0.0]], [[1.0, 2.0], [2.0, 1.0]], [[1.0, 2.0], [0.0, 1.0]]])))
b = torch.zeros(2, 2, 2)
print(lc(b), pd(b).shape)
m = MultivariateNormal(torch.zeros(3), scale_tril=lc(x.detach()))
print(m.covariance_matrix, transform_to(MultivariateNormal.arg_constraints["scale_tril"])(torch.zeros(2, 2)))
