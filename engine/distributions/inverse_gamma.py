"""`InverseGamma(concentration, rate)`: 1 / X for X ~ Gamma(concentration, rate), as a
TransformedDistribution (a PowerTransform of exponent -1).

>>> InverseGamma(torch.tensor([2.0]), torch.tensor([3.0])).mean
tensor([3.])
"""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.gamma import Gamma
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import PowerTransform


class InverseGamma(TransformedDistribution):
    """Y = 1 / X, X ~ Gamma(concentration, rate)."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True
    base_dist: Gamma

    def __init__(self, concentration: Any, rate: Any, validate_args: Any = None) -> None:
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> InverseGamma:
        new = super().expand(
            batch_shape, _instance=self._get_checked_instance(InverseGamma, _instance)
        )
        assert isinstance(new, InverseGamma)
        return new

    @property
    def concentration(self) -> Tensor:
        return self.base_dist.concentration

    @property
    def rate(self) -> Tensor:
        return self.base_dist.rate

    @property
    def mean(self) -> Tensor:
        from engine.ops.pointwise import where

        return where(self.concentration > 1, self.rate / (self.concentration - 1), float("inf"))

    @property
    def mode(self) -> Tensor:
        return self.rate / (self.concentration + 1)

    @property
    def variance(self) -> Tensor:
        from engine.ops.pointwise import where

        c = self.concentration
        result = self.rate.square() / ((c - 1).square() * (c - 2))
        return where(c > 2, result, float("inf"))

    def entropy(self) -> Tensor:
        c = self.concentration
        return c + self.rate.log() + c.lgamma() - (1 + c) * c.digamma()
