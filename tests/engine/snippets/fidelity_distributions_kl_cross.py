import torch
from torch.distributions import (
    Bernoulli, Beta, Binomial, Exponential, Gamma, Laplace, MultivariateNormal, Normal, Poisson,
    Uniform, kl_divergence,
)

a = torch.tensor([0.5, 2.0], requires_grad=True)
b = torch.tensor([1.5, 0.7], requires_grad=True)
u = torch.tensor([0.2, 0.1], requires_grad=True)
pairs = [
    (Bernoulli(u), Poisson(b)),
    (Beta(a, b), Exponential(b)),
    (Beta(a, b), Gamma(b, a)),
    (Beta(a, b), Normal(a, b)),
    (Beta(a, b), Uniform(-u, 1 + u)),
    (Beta(a, b), Uniform(u, 1 + u)),
    (Exponential(a), Normal(u, b)),
    (Exponential(a), Gamma(b, a)),
    (Gamma(a, b), Exponential(a)),
    (Gamma(a, b), Normal(u, a)),
    (Laplace(u, a), Normal(b, a)),
    (Normal(u, a), Laplace(b, a)),
    (Uniform(u, a + 1), Beta(a, b)),
    (Uniform(u, u + 0.5), Beta(a, b)),
    (Uniform(u, a + 1), Exponential(b)),
    (Uniform(u, a + 1), Gamma(a, b)),
    (Uniform(u, a + 1), Normal(b, a)),
    (Uniform(-u, a), Exponential(b)),
    (Normal(a, b), Exponential(b)),
    (Exponential(a), Uniform(u, b)),
    (Gamma(a, b), Beta(a, b)),
    (Laplace(a, b), Gamma(a, b)),
    (Poisson(a), Binomial(3, u)),
]
for p, q in pairs:
    kl = kl_divergence(p, q)
    for t in (a, b, u):
        t.grad = None
    if kl.requires_grad and bool(kl.isfinite().all()):
        kl.sum().backward()
    print(type(p).__name__, type(q).__name__, kl, kl.grad_fn, a.grad, b.grad, u.grad)
loc = torch.tensor([0.5, -1.0], requires_grad=True)
L = torch.tensor([[1.0, 0.0], [0.3, 0.8]], requires_grad=True)
p = MultivariateNormal(loc, scale_tril=L)
q = MultivariateNormal(torch.zeros(3, 2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
kl = kl_divergence(p, q)
kl.sum().backward()
print(kl, kl.grad_fn, loc.grad, L.grad)
try:
    kl_divergence(p, MultivariateNormal(torch.zeros(3), torch.eye(3)))
except ValueError as err:
    print(err)
