"""`HalfCauchy(scale)`: |X| for X ~ Cauchy(0, scale), as a TransformedDistribution.

>>> torch.manual_seed(0); HalfCauchy(1.0).sample((2,))
tensor([10.5977,  0.7648])
"""

from __future__ import annotations

import math
from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.cauchy import Cauchy
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import AbsTransform

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class HalfCauchy(TransformedDistribution):
    """A Cauchy(0, scale) folded onto x >= 0."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    base_dist: Cauchy

    def __init__(self, scale: Any, validate_args: Any = None) -> None:
        base_dist = Cauchy(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> HalfCauchy:
        checked = self._get_checked_instance(HalfCauchy, _instance)
        new = super().expand(batch_shape, _instance=checked)
        assert isinstance(new, HalfCauchy)
        return new

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    @property
    def mean(self) -> Tensor:
        return torch.full(self._extended_shape(), math.inf, dtype=self.scale.dtype)

    @property
    def mode(self) -> Tensor:
        return torch.zeros_like(self.scale)

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = torch.as_tensor(value, dtype=self.base_dist.scale.dtype)
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
