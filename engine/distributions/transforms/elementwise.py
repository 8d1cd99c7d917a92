"""Pointwise maps: Exp, Power, Sigmoid, Softplus, Tanh, Affine, Abs (not a bijection) and a
distribution's CDF, with PyTorch's formulas for the log|det J|, which decide the graph a
`log_prob` records."""

from __future__ import annotations

import math
from numbers import Number, Real
from typing import Any

import engine as _engine
from engine.distributions import constraints
from engine.distributions.distribution import broadcast_all
from engine.distributions.transforms.base import Transform

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


def _same_kind(self: Transform, other: object) -> bool:
    """`==` of the parameterless transforms: any instance of the same class."""
    return isinstance(other, type(self))


class AbsTransform(Transform):
    """y = |x| (not bijective: the inverse gives the positive branch)."""

    domain = constraints.real
    codomain = constraints.positive

    __eq__ = _same_kind
    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.abs()

    def _inverse(self, y: Any) -> Any:
        return y


class ExpTransform(Transform):
    """y = exp(x)."""

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    __eq__ = _same_kind
    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.exp()

    def _inverse(self, y: Any) -> Any:
        return y.log()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return x


class PowerTransform(Transform):
    """y = x ** exponent on the positive reals."""

    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent: Any, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        (self.exponent,) = broadcast_all(exponent)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return PowerTransform(self.exponent, cache_size=cache_size)

    @property
    def sign(self) -> Any:
        return self.exponent.sign()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PowerTransform):
            return False
        return bool(self.exponent.eq(other.exponent).all().item())

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.pow(self.exponent)

    def _inverse(self, y: Any) -> Any:
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape: Any) -> Any:
        return torch.broadcast_shapes(shape, getattr(self.exponent, "shape", ()))

    inverse_shape = forward_shape


class SigmoidTransform(Transform):
    """y = sigmoid(x), clipped into [tiny, 1 - eps]."""

    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True
    sign = +1

    __eq__ = _same_kind
    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        finfo = torch.finfo(x.dtype)
        return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)

    def _inverse(self, y: Any) -> Any:
        finfo = torch.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        softplus = torch.nn.functional.softplus
        return -softplus(-x) - softplus(x)


class SoftplusTransform(Transform):
    """y = log(1 + exp(x))."""

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    __eq__ = _same_kind
    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return torch.nn.functional.softplus(x)

    def _inverse(self, y: Any) -> Any:
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return -torch.nn.functional.softplus(-x)


class TanhTransform(Transform):
    """y = tanh(x); log|det J| written stably as 2 (log 2 - x - softplus(-2x))."""

    domain = constraints.real
    codomain = constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    __eq__ = _same_kind
    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.tanh()

    def _inverse(self, y: Any) -> Any:
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return 2.0 * (math.log(2.0) - x - torch.nn.functional.softplus(-2.0 * x))


class AffineTransform(Transform):
    """y = loc + scale * x, over `event_dim` rightmost dims."""

    bijective = True

    def __init__(self, loc: Any, scale: Any, event_dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc = loc
        self.scale = scale
        self._event_dim = event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @property
    def domain(self) -> Any:
        if self.event_dim == 0:
            return constraints.real
        return constraints.independent(constraints.real, self.event_dim)

    codomain = domain

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self.event_dim, cache_size=cache_size)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AffineTransform):
            return False
        for mine, theirs in ((self.loc, other.loc), (self.scale, other.scale)):
            if isinstance(mine, Number) and isinstance(theirs, Number):
                if mine != theirs:
                    return False
            elif not (mine == theirs).all().item():
                return False
        return True

    __hash__ = object.__hash__

    @property
    def sign(self) -> Any:
        if isinstance(self.scale, Real):  # PyTorch tests Number; a scale is never complex
            s = float(self.scale)
            return 1 if s > 0 else -1 if s < 0 else 0
        return self.scale.sign()

    def _call(self, x: Any) -> Any:
        return self.loc + self.scale * x

    def _inverse(self, y: Any) -> Any:
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        shape = x.shape
        if isinstance(self.scale, Real):
            result = torch.full_like(x, math.log(abs(self.scale)))
        else:
            result = torch.abs(self.scale).log()
        if self.event_dim:
            result = result.view(*result.size()[: -self.event_dim], -1).sum(-1)
            shape = shape[: -self.event_dim]
        return result.expand(shape)

    def forward_shape(self, shape: Any) -> Any:
        return torch.broadcast_shapes(
            shape, getattr(self.loc, "shape", ()), getattr(self.scale, "shape", ())
        )

    inverse_shape = forward_shape


class CumulativeDistributionTransform(Transform):
    """y = distribution.cdf(x), from its support onto [0, 1] (inverse: its icdf; log|det J|:
    its log density)."""

    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution: Any, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self) -> Any:
        return self.distribution.support

    def _call(self, x: Any) -> Any:
        return self.distribution.cdf(x)

    def _inverse(self, y: Any) -> Any:
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return self.distribution.log_prob(x)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return CumulativeDistributionTransform(self.distribution, cache_size=cache_size)
