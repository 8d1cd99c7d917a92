# KL divergences PyTorch registers between ContinuousBernoulli and other families
import torch
from torch.distributions import Beta, ContinuousBernoulli, Exponential, Gamma, Gumbel, Laplace, Normal, Pareto, Uniform
from torch.distributions import kl_divergence as kl

cb = ContinuousBernoulli(torch.tensor([0.2, 0.4995, 0.9]))
two = torch.tensor
others = {
    "Beta": Beta(two([2.0, 1.0, 0.5]), two([1.0, 2.0, 3.0])),
    "Uniform": Uniform(two([0.1, 0.0, 0.2]), two([0.9, 1.0, 0.6])),
    "Exponential": Exponential(two([1.0, 2.0, 0.5])),
    "Normal": Normal(two([0.0, 1.0, 0.5]), two([1.0, 0.5, 2.0])),
    "Gamma": Gamma(two([2.0, 1.0, 0.5]), two([1.0, 2.0, 3.0])),
    "Gumbel": Gumbel(two([0.0, 1.0, 0.5]), two([1.0, 0.5, 2.0])),
    "Laplace": Laplace(two([0.0, 1.0, 0.5]), two([1.0, 0.5, 2.0])),
    "Pareto": Pareto(two([1.0, 1.0, 2.0]), two([2.0, 3.0, 1.5])),
}
for name, d in others.items():
    for p, q in ((d, cb), (cb, d)):
        try:
            print(type(p).__name__, type(q).__name__, kl(p, q))
        except NotImplementedError:
            print(type(p).__name__, type(q).__name__, "not implemented")
