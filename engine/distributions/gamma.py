"""`Gamma(concentration, rate)`; `rsample` divides ATen's standard gamma draw by the rate
(`torch._standard_gamma`, engine/ops/gamma.py; grad_fn DivBackward0 over StandardGammaBackward0).

>>> torch.manual_seed(0); Gamma(2.0, 1.0).sample()
tensor(4.5526)
"""

from __future__ import annotations

from numbers import Number
from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import broadcast_all
from engine.distributions.exp_family import ExponentialFamily
from engine.ops.gamma import _standard_gamma

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class Gamma(ExponentialFamily):
    """Gamma with shape `concentration` and inverse scale `rate`."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration: Any, rate: Any, validate_args: Any = None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        scalar = isinstance(concentration, Number) and isinstance(rate, Number)
        shape = Size() if scalar else self.concentration.size()
        super().__init__(shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Gamma:
        return self._expand_params(Gamma, batch_shape, _instance, "concentration", "rate")

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.rate

    @property
    def mode(self) -> Tensor:
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> Tensor:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        drawn = _standard_gamma(self.concentration.expand(shape))
        value: Tensor = drawn / self.rate.expand(shape)
        value.detach().clamp_(min=torch.finfo(value.dtype).tiny)  # not recorded in the graph
        return value

    def log_prob(self, value: Tensor) -> Tensor:
        value = torch.as_tensor(value, dtype=self.rate.dtype)
        if self._validate_args:
            self._validate_sample(value)
        c, r = self.concentration, self.rate
        return torch.xlogy(c, r) + torch.xlogy(c - 1, value) - r * value - torch.lgamma(c)

    def entropy(self) -> Tensor:
        c = self.concentration
        return c - torch.log(self.rate) + torch.lgamma(c) + (1.0 - c) * torch.digamma(c)

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        out: Tensor = torch.special.gammainc(self.concentration, self.rate * value)
        return out

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        x, y = natural_params
        return torch.lgamma(x + 1) + (x + 1) * torch.log(-y.reciprocal())
