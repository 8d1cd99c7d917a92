"""`Kumaraswamy(concentration1, concentration0)`: (1 - (1 - U) ** (1 / b)) ** (1 / a) on the
unit interval, a TransformedDistribution of a Uniform as PyTorch's (same draws, rsample
gradients).

>>> torch.manual_seed(0); Kumaraswamy(2.0, 3.0).sample((2,))
tensor([0.4564, 0.2901])
"""

from __future__ import annotations

import math
from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import broadcast_all
from engine.distributions.kinds import Uniform
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import AffineTransform, PowerTransform
from engine.distributions.utils import euler_constant

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


def _moments(a: Tensor, b: Tensor, n: int) -> Tensor:
    """E[X ** n] = b * B(1 + n / a, b), through lgamma."""
    arg1 = 1 + n / a
    log_value = torch.lgamma(arg1) + torch.lgamma(b) - torch.lgamma(arg1 + b)
    return b * torch.exp(log_value)


class Kumaraswamy(TransformedDistribution):
    """A Beta-like distribution on [0, 1] with a closed-form CDF."""

    arg_constraints = {
        "concentration1": constraints.positive,
        "concentration0": constraints.positive,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1: Any, concentration0: Any, validate_args: Any = None) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base = Uniform(
            torch.full_like(self.concentration0, 0),
            torch.full_like(self.concentration0, 1),
            validate_args=validate_args,
        )
        transforms = [
            PowerTransform(exponent=self.concentration0.reciprocal()),
            AffineTransform(loc=1.0, scale=-1.0),
            PowerTransform(exponent=self.concentration1.reciprocal()),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Kumaraswamy:
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        out = super().expand(batch_shape, _instance=new)
        assert isinstance(out, Kumaraswamy)
        return out

    @property
    def mean(self) -> Tensor:
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self) -> Tensor:
        a, b = self.concentration1, self.concentration0
        log_mode = b.reciprocal() * (-b).log1p() - (-b * a).log1p()
        log_mode[(b < 1) | (a < 1)] = math.nan  # no interior mode then
        return log_mode.exp()

    @property
    def variance(self) -> Tensor:
        return _moments(self.concentration1, self.concentration0, 2) - torch.pow(self.mean, 2)

    def entropy(self) -> Tensor:
        a, b = self.concentration1, self.concentration0
        t1 = 1 - a.reciprocal()
        t0 = 1 - b.reciprocal()
        h0 = torch.digamma(b + 1) + euler_constant
        return t0 + t1 * h0 - torch.log(a) - torch.log(b)
