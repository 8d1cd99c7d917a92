"""`HalfNormal(scale)`: |X| for X ~ Normal(0, scale), as a TransformedDistribution.

>>> torch.manual_seed(0); HalfNormal(1.0).sample((2,))
tensor([1.5410, 0.2934])
"""

from __future__ import annotations

import math
from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.kinds import Normal
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import AbsTransform

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class HalfNormal(TransformedDistribution):
    """A Normal(0, scale) folded onto x >= 0."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    base_dist: Normal

    def __init__(self, scale: Any, validate_args: Any = None) -> None:
        base_dist = Normal(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> HalfNormal:
        checked = self._get_checked_instance(HalfNormal, _instance)
        new = super().expand(batch_shape, _instance=checked)
        assert isinstance(new, HalfNormal)
        return new

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    @property
    def mean(self) -> Tensor:
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def mode(self) -> Tensor:
        return torch.zeros_like(self.scale)

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2) * (1 - 2 / math.pi)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, value: Tensor) -> Tensor:
        return self.base_dist.icdf((value + 1) / 2)

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() - math.log(2)
