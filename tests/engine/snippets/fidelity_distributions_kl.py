import torch
from torch.distributions import (
    Bernoulli, Beta, Binomial, Categorical, Dirichlet, Exponential, Gamma, Independent, Laplace,
    LogNormal, Normal, OneHotCategorical, Poisson, Uniform, constraints, kl_divergence,
)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5, 3.0], requires_grad=True)
pairs = [
    (Normal(a, b), Normal(b, a)),
    (Exponential(a), Exponential(b)),
    (Gamma(a, b), Gamma(b, a)),
    (Beta(a, b), Beta(b, a)),
    (Laplace(a, b), Laplace(b, a)),
    (Poisson(a), Poisson(b)),
    (Dirichlet(torch.stack([a, b], -1)), Dirichlet(torch.stack([b, a], -1))),
    (LogNormal(a, b), LogNormal(b, a)),
    (Independent(Normal(a, b), 1), Independent(Normal(b, a), 1)),
    (Exponential(a), Gamma(b, a)),
    (Gamma(a, b), Exponential(b)),
]
for p, q in pairs:
    kl = kl_divergence(p, q)
    a.grad = None
    b.grad = None
    kl.sum().backward()
    print(type(p).__name__, type(q).__name__, kl, kl.grad_fn, a.grad, b.grad)
logits = torch.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 1.0]], requires_grad=True)
kl = kl_divergence(Categorical(logits=logits), Categorical(probs=torch.tensor([0.2, 0.3, 0.5])))
kl.sum().backward()
print(kl, kl.grad_fn, logits.grad)
print(kl_divergence(OneHotCategorical(torch.tensor([0.2, 0.8])), OneHotCategorical(torch.tensor([0.5, 0.5]))))
print(kl_divergence(Categorical(torch.tensor([0.5, 0.5, 0.0])), Categorical(torch.tensor([0.3, 0.0, 0.7]))))
pb = torch.tensor([0.3, 0.0, 0.9], requires_grad=True)
kl = kl_divergence(Bernoulli(pb), Bernoulli(torch.tensor([0.5, 0.5, 1.0])))
kl.sum().backward()
print(kl, pb.grad)
print(kl_divergence(Binomial(10, torch.tensor([0.3])), Binomial(10, torch.tensor([0.6]))))
print(kl_divergence(Uniform(0.0, 1.0), Uniform(-1.0, 2.0)), kl_divergence(Uniform(0.0, 1.0), Uniform(0.5, 2.0)))
try:
    kl_divergence(Normal(0.0, 1.0), Categorical(torch.tensor([0.5, 0.5])))
except NotImplementedError as err:
    print(err)
print(constraints.positive, constraints.real, constraints.simplex, constraints.unit_interval, constraints.interval(0, 2), constraints.nonnegative_integer, constraints.real_vector, constraints.one_hot, constraints.boolean)
print(constraints.positive.check(torch.tensor([1.0, 0.0, -1.0])), constraints.simplex.check(torch.tensor([[0.5, 0.5], [0.7, 0.7]])), constraints.integer_interval(0, 3).check(torch.tensor([0.0, 3.0, 1.5, 4.0])))
print(constraints.independent(constraints.positive, 1).check(torch.tensor([[1.0, 2.0], [1.0, -1.0]])), constraints.positive.event_dim, constraints.simplex.event_dim, constraints.is_dependent(constraints.dependent), constraints.nonnegative_integer.is_discrete)
