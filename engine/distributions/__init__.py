"""`torch.distributions`: Normal, Uniform, Bernoulli, Categorical and their KL, written as
PyTorch writes them (same draws from the generator, same composed graph).

>>> torch.manual_seed(0); torch.distributions.Normal(0.0, 1.0).sample((2,))
tensor([ 1.5410, -0.2934])
"""

from __future__ import annotations

from engine.distributions.distribution import Distribution
from engine.distributions.independent import Independent
from engine.distributions.kinds import Bernoulli, Categorical, Normal, Uniform, kl_divergence
from engine.distributions.multivariate_normal import MultivariateNormal

__all__ = [
    "Bernoulli",
    "Categorical",
    "Distribution",
    "Independent",
    "MultivariateNormal",
    "Normal",
    "Uniform",
    "kl_divergence",
]
