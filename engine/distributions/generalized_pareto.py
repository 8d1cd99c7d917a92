"""`GeneralizedPareto(loc, scale, concentration)`, the distribution of tails (Exponential at
concentration 0, a shifted Pareto above, bounded below), written as PyTorch writes it after
TensorFlow Probability: `rsample` is the icdf of a uniform draw, and a concentration near 0
takes the exponential branch of each formula.

>>> GeneralizedPareto(0.0, 1.0, 0.0).cdf(torch.tensor(1.0))
tensor(0.6321)
"""

from __future__ import annotations

from numbers import Number
from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import Distribution, broadcast_all

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class GeneralizedPareto(Distribution):
    """Survival function (1 + concentration z) ** (-1 / concentration), z = (x - loc) / scale."""

    arg_constraints = {
        "loc": constraints.real,
        "scale": constraints.positive,
        "concentration": constraints.real,
    }
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, concentration: Any, validate_args: Any = None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        if all(isinstance(v, Number) for v in (loc, scale, concentration)):
            batch_shape = Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> GeneralizedPareto:
        return self._expand_params(
            GeneralizedPareto, batch_shape, _instance, "loc", "scale", "concentration"
        )

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        u = torch.rand(shape, dtype=self.loc.dtype)
        return self.icdf(u)

    def _safe_concentration(self) -> tuple[Tensor, Tensor]:
        """Where the concentration is (close to) 0, and the concentration with 1 there."""
        eq_zero = torch.isclose(self.concentration, torch.tensor(0.0))
        safe_conc = torch.where(eq_zero, torch.ones_like(self.concentration), self.concentration)
        return eq_zero, safe_conc

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        y = 1 / safe_conc + torch.ones_like(z)
        where_nonzero = torch.where(y == 0, y, y * torch.log1p(safe_conc * z))
        return -self.scale.log() - torch.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        where_nonzero = -torch.log1p(safe_conc * z) / safe_conc
        return torch.where(eq_zero, -z, where_nonzero)

    def log_cdf(self, value: Tensor) -> Tensor:
        return torch.log1p(-torch.exp(self.log_survival_function(value)))

    def cdf(self, value: Tensor) -> Tensor:
        return torch.exp(self.log_cdf(value))

    def icdf(self, value: Tensor) -> Tensor:
        loc, scale, concentration = self.loc, self.scale, self.concentration
        eq_zero = torch.isclose(concentration, torch.zeros_like(concentration))
        safe_conc = torch.where(eq_zero, torch.ones_like(concentration), concentration)
        logu = torch.log1p(-value)
        where_nonzero = loc + scale / safe_conc * torch.expm1(-safe_conc * logu)
        where_zero = loc - scale * logu
        return torch.where(eq_zero, where_zero, where_nonzero)

    def _z(self, x: Tensor) -> Tensor:
        return (x - self.loc) / self.scale

    @property
    def mean(self) -> Tensor:
        valid = self.concentration < 1
        safe_conc = torch.where(valid, self.concentration, 0.5)
        result = self.loc + self.scale / (1 - safe_conc)
        return torch.where(valid, result, float("nan"))

    @property
    def variance(self) -> Tensor:
        valid = self.concentration < 0.5
        safe_conc = torch.where(valid, self.concentration, 0.25)
        result = self.scale**2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc))
        return torch.where(valid, result, float("nan"))

    def entropy(self) -> Tensor:
        ans = torch.log(self.scale) + self.concentration + 1
        return torch.broadcast_to(ans, self._batch_shape)

    @property
    def mode(self) -> Tensor:
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> Any:
        """[loc, inf), or [loc, loc - scale / concentration] for a negative concentration."""
        lower = self.loc
        upper = torch.where(
            self.concentration < 0, lower - self.scale / self.concentration, float("inf")
        )
        return constraints.interval(lower, upper)
