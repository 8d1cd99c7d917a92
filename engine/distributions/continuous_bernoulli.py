"""`ContinuousBernoulli(probs | logits)`: the density C(p) p^x (1 - p)^(1 - x) on [0, 1]
(Loaiza-Ganem & Cunningham), with PyTorch's Taylor expansions near p = 1/2 (inside `lims`),
where the closed forms lose precision; rsample inverts the CDF of a `rand` draw.

>>> torch.manual_seed(0); ContinuousBernoulli(0.3).sample((2,))
tensor([0.3936, 0.6822])
"""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import broadcast_all
from engine.distributions.exp_family import ExponentialFamily
from engine.distributions.kinds import _ProbsOrLogits
from engine.distributions.utils import clamp_probs
from engine.nn import functional as F

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class ContinuousBernoulli(_ProbsOrLogits, ExponentialFamily):
    """A [0, 1]-valued relaxation of Bernoulli with a proper normalising constant."""

    _binary = True  # logits from probs as Bernoulli's; probs from logits are clamped here

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True
    _lazy_params = ("probs", "logits")

    def __init__(
        self,
        probs: Any = None,
        logits: Any = None,
        lims: tuple[float, float] = (0.499, 0.501),
        validate_args: Any = None,
    ) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            scalar = isinstance(probs, Number)
            (given,) = broadcast_all(probs)
            # checked before clamping, as PyTorch
            if validate_args is not None and not self.arg_constraints["probs"].check(given).all():
                raise ValueError("The parameter probs has invalid values")
            self.__dict__["probs"] = clamp_probs(given)
        else:
            scalar = isinstance(logits, Number)
            (self.__dict__["logits"],) = broadcast_all(logits)
        self._lims = lims
        super().__init__(Size() if scalar else self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> ContinuousBernoulli:
        new = self._expand_params(ContinuousBernoulli, batch_shape, _instance, "probs", "logits")
        new._lims = self._lims
        return new

    @property
    def probs(self) -> Tensor:
        if "probs" not in self.__dict__:
            with torch.enable_grad():  # (a lazy_property in PyTorch: see utils.lazy_property)
                self.__dict__["probs"] = clamp_probs(torch.sigmoid(self.__dict__["logits"]))
        out: Tensor = self.__dict__["probs"]
        return out

    def _outside_unstable_region(self) -> Tensor:
        low, high = torch.le(self.probs, self._lims[0]), torch.gt(self.probs, self._lims[1])
        return torch.maximum(low, high)  # PyTorch's torch.max(a, b): the same elementwise op

    def _cut_probs(self) -> Tensor:
        low = self._lims[0] * torch.ones_like(self.probs)
        return torch.where(self._outside_unstable_region(), self.probs, low)

    def _cont_bern_log_norm(self) -> Tensor:
        """log C(p), by its Taylor expansion inside the unstable region."""
        cut = self._cut_probs()
        below = torch.where(torch.le(cut, 0.5), cut, torch.zeros_like(cut))
        above = torch.where(torch.ge(cut, 0.5), cut, torch.ones_like(cut))
        log_norm = torch.log(torch.abs(torch.log1p(-cut) - torch.log(cut))) - torch.where(
            torch.le(cut, 0.5), torch.log1p(-2.0 * below), torch.log(2.0 * above - 1.0)
        )
        x = torch.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return torch.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self) -> Tensor:
        cut = self._cut_probs()
        mus = cut / (2.0 * cut - 1.0) + 1.0 / (torch.log1p(-cut) - torch.log(cut))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * torch.pow(x, 2)) * x
        return torch.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self) -> Tensor:
        return torch.sqrt(self.variance)

    @property
    def variance(self) -> Tensor:
        cut = self._cut_probs()
        var = cut * (cut - 1.0) / torch.pow(1.0 - 2.0 * cut, 2) + 1.0 / torch.pow(
            torch.log1p(-cut) - torch.log(cut), 2
        )
        x = torch.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return torch.where(self._outside_unstable_region(), var, taylor)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        u = torch.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype)
        with torch.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        u = torch.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype)
        return self.icdf(u)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        bce = F.binary_cross_entropy_with_logits(logits, value, reduction="none")
        return -bce + self._cont_bern_log_norm()

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        cut = self._cut_probs()
        cdfs = (torch.pow(cut, value) * torch.pow(1.0 - cut, 1.0 - value) + cut - 1.0) / (
            2.0 * cut - 1.0
        )
        unbounded = torch.where(self._outside_unstable_region(), cdfs, value)
        return torch.where(
            torch.le(value, 0.0),
            torch.zeros_like(value),
            torch.where(torch.ge(value, 1.0), torch.ones_like(value), unbounded),
        )

    def icdf(self, value: Tensor) -> Tensor:
        cut = self._cut_probs()
        inverted = (torch.log1p(-cut + value * (2.0 * cut - 1.0)) - torch.log1p(-cut)) / (
            torch.log(cut) - torch.log1p(-cut)
        )
        return torch.where(self._outside_unstable_region(), inverted, value)

    def entropy(self) -> Tensor:
        log_probs0 = torch.log1p(-self.probs)
        log_probs1 = torch.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        return (self.logits,)

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        """log C as a function of the natural parameter (a Taylor series near 0)."""
        (x,) = natural_params
        lo, hi = self._lims[0] - 0.5, self._lims[1] - 0.5
        outside = torch.maximum(torch.le(x, lo), torch.gt(x, hi))
        cut = torch.where(outside, x, lo * torch.ones_like(x))
        log_norm = torch.log(torch.abs(torch.special.expm1(cut))) - torch.log(torch.abs(cut))
        taylor = 0.5 * x + torch.pow(x, 2) / 24.0 - torch.pow(x, 4) / 2880.0
        return torch.where(outside, log_norm, taylor)
