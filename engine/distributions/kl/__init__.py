"""`torch.distributions.kl`: `kl_divergence` and `register_kl`, with every pair PyTorch
registers among the distributions the engine has.

>>> kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0))
tensor(0.4431)
"""

from __future__ import annotations

from engine.distributions.kl import continuous_bernoulli, cross_family, multivariate, same_family
from engine.distributions.kl.registry import _KL_REGISTRY, kl_divergence, register_kl

__all__ = ["_KL_REGISTRY", "kl_divergence", "register_kl"]
_FAMILIES = (
    same_family,
    cross_family,
    multivariate,
    continuous_bernoulli,
)  # imported for their registrations
