"""`LogisticNormal(loc, scale)`: a Normal mapped onto the simplex by the stick-breaking
transform, as a TransformedDistribution (one more coordinate than the Normal).

>>> LogisticNormal(torch.zeros(3), torch.ones(3)).event_shape
torch.Size([4])
"""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.kinds import Normal
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import StickBreakingTransform


class LogisticNormal(TransformedDistribution):
    """X = StickBreaking(Y), Y ~ Normal(loc, scale) (a batch of one for scalar parameters)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        base_dist: Any = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LogisticNormal:
        new = super().expand(
            batch_shape, _instance=self._get_checked_instance(LogisticNormal, _instance)
        )
        assert isinstance(new, LogisticNormal)
        return new

    @property
    def loc(self) -> Tensor:
        base: Any = self.base_dist
        loc: Tensor = base.base_dist.loc
        return loc

    @property
    def scale(self) -> Tensor:
        base: Any = self.base_dist
        scale: Tensor = base.base_dist.scale
        return scale
