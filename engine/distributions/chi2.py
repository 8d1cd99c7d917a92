"""`Chi2(df)`: exactly `Gamma(0.5 * df, 0.5)`, so it draws and differentiates as Gamma does.

>>> torch.manual_seed(0); Chi2(4.0).sample()
tensor(9.1052)
"""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.gamma import Gamma


class Chi2(Gamma):
    """Chi-squared with `df` degrees of freedom."""

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df: Any, validate_args: Any = None) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Chi2:
        new = super().expand(batch_shape, _instance=self._get_checked_instance(Chi2, _instance))
        assert isinstance(new, Chi2)
        return new

    @property
    def df(self) -> Tensor:
        return self.concentration * 2
