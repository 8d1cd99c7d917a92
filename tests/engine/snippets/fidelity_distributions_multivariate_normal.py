import torch
from torch.distributions import MultivariateNormal
torch.manual_seed(0)
m = MultivariateNormal(torch.zeros(2), torch.eye(2))
print(m, m.sample(), m.batch_shape, m.event_shape)
loc = torch.tensor([1.0, -1.0], requires_grad=True)
A = torch.tensor([[2.0, 0.3], [0.3, 1.0]], requires_grad=True)
d = MultivariateNormal(loc, covariance_matrix=A)
s = d.rsample((3,))
lp = d.log_prob(s)
print(s, lp)
lp.sum().backward()
print(loc.grad, A.grad)
print(d.entropy(), d.variance, d.mean, d.scale_tril)
L = torch.tensor([[1.0, 0.0], [0.5, 2.0]])
d2 = MultivariateNormal(torch.zeros(3, 2), scale_tril=L)
print(d2, d2.batch_shape, d2.log_prob(torch.ones(4, 3, 2)).shape, d2.entropy(), d2.covariance_matrix[0])
d3 = MultivariateNormal(torch.zeros(2), precision_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(d3, d3.scale_tril, d3.log_prob(torch.tensor([0.5, 0.5])))
for kw in [dict(), dict(covariance_matrix=torch.eye(2), scale_tril=torch.eye(2)), dict(covariance_matrix=torch.ones(2)), dict(scale_tril=torch.ones(2))]:
    try:
        MultivariateNormal(torch.zeros(2), **kw)
    except ValueError as e:
        print(e)
try:
    MultivariateNormal(torch.tensor(0.), torch.eye(1))
except ValueError as e:
    print(e)
try:
    MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except ValueError as e:
    print(e)
try:
    MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 1.0], [0.0, 1.0]]))
except ValueError as e:
    print(e)
