"""`LogNormal(loc, scale)`: exp of a Normal, as a TransformedDistribution.

>>> torch.manual_seed(0); LogNormal(0.0, 1.0).sample((2,))
tensor([4.6692, 0.7457])
"""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.kinds import Normal
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import ExpTransform


class LogNormal(TransformedDistribution):
    """X = exp(Y), Y ~ Normal(loc, scale)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True
    base_dist: Normal

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LogNormal:
        new = super().expand(
            batch_shape, _instance=self._get_checked_instance(LogNormal, _instance)
        )
        assert isinstance(new, LogNormal)
        return new

    @property
    def loc(self) -> Tensor:
        return self.base_dist.loc

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    @property
    def mean(self) -> Tensor:
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self) -> Tensor:
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self) -> Tensor:
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() + self.loc
