"""`torch.special`: special functions (most with PyTorch's nodes, in engine/ops/special_*.py),
aliases of torch ops, and the Bessel/orthogonal-polynomial functions PyTorch gives no gradient.

>>> torch.special.expit(torch.tensor([0.0]))
tensor([0.5000])
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.ops import special_binary as _bin
from engine.ops import special_f32
from engine.ops import special_ops as _ops
from engine.ops._core import float_array

_ALIASES = {
    "expit": "sigmoid", "logit": "logit", "erf": "erf", "erfc": "erfc", "expm1": "expm1",
    "exp2": "exp2", "log1p": "log1p", "logsumexp": "logsumexp", "sinc": "sinc",
    "gammaln": "lgamma", "digamma": "digamma", "psi": "digamma",
    "polygamma": "polygamma", "multigammaln": "mvlgamma", "erfinv": "erfinv", "i0": "i0",
    "gammainc": "igamma", "gammaincc": "igammac",
}  # fmt: skip

erfcx = _ops.special_erfcx
i0e = _ops.special_i0e
i1 = _ops.special_i1
i1e = _ops.special_i1e
ndtri = _ops.special_ndtri
log_ndtr = _ops.special_log_ndtr
entr = _ops.special_entr
xlog1py = _bin.special_xlog1py
xlogy = _bin.special_xlogy
zeta = _bin.special_zeta


def round(input: Any, *, decimals: int = 0) -> Any:
    """`torch.special.round` always passes decimals, so it records RoundBackward1."""
    return input.round(decimals=decimals)


def softmax(input: Any, dim: int, *, dtype: Any = None) -> Any:
    return input.softmax(dim, dtype=dtype)


def log_softmax(input: Any, dim: int, *, dtype: Any = None) -> Any:
    return input.log_softmax(dim, dtype=dtype)


def ndtr(input: Tensor) -> Tensor:
    """The standard normal CDF, composed as ATen does: (1 + erf(x / sqrt(2))) * 0.5."""
    from engine.ops.composite import add_scalar
    from engine.ops.scalar_overloads import mul_scalar

    return mul_scalar(add_scalar(mul_scalar(input, math.sqrt(0.5)).erf(), 1.0), 0.5)


# -- functions PyTorch computes without a gradient (their outputs never require grad) --------
def _plain(fn: Callable[[Any], Any], f32: Any = None) -> Callable[..., Tensor]:
    def run(input: Tensor, *, out: Any = None) -> Tensor:
        a = float_array(input)
        if f32 is not None and a.dtype == np.float32:
            return make(f32(a), False, None, 0)
        with np.errstate(all="ignore"):
            return make(np.asarray(fn(a.astype(np.float64))).astype(a.dtype), False, None, 0)

    return run


def _sc() -> Any:
    return _ops._sc()


bessel_j0 = _plain(lambda a: _sc().j0(a))
bessel_j1 = _plain(lambda a: _sc().j1(a))
bessel_y0 = _plain(lambda a: np.where(a < 0, np.nan, _sc().y0(a)))
bessel_y1 = _plain(lambda a: np.where(a < 0, np.nan, _sc().y1(a)))
modified_bessel_i0 = _plain(lambda a: _sc().i0(a), special_f32.i0)
modified_bessel_i1 = _plain(lambda a: _sc().i1(a))
modified_bessel_k0 = _plain(lambda a: _sc().k0(a))
modified_bessel_k1 = _plain(lambda a: _sc().k1(a))
scaled_modified_bessel_k0 = _plain(lambda a: _sc().k0e(a))
scaled_modified_bessel_k1 = _plain(lambda a: _sc().k1e(a))
spherical_bessel_j0 = _plain(lambda a: np.where(a == 0, 1.0, np.sin(a) / np.where(a == 0, 1, a)))
airy_ai = _plain(lambda a: _sc().airy(a)[0])


_Step = Callable[[Any, Any, Any, Any], Any]


def _poly(step: _Step, first: Callable[[Any], Any]) -> Callable[..., Any]:
    """A polynomial family: p_0 = 1, p_1 = first(x), p_k = step(x, p_{k-1}, p_{k-2}, k), and
    p_n = 0 for n < 0 (the recurrence runs in float64)."""

    def run(input: Any, n: Any, *, out: Any = None) -> Tensor:
        xt = input if isinstance(input, Tensor) else None
        nt = n if isinstance(n, Tensor) else None
        x = float_array(xt) if xt is not None else np.asarray(float(input))
        dt = x.dtype if xt is not None else float_array(make(np.zeros(0), False, None, 0)).dtype
        k = np.asarray(nt._d if nt is not None else n).astype(np.int64)
        x64, k = np.broadcast_arrays(x.astype(np.float64), k)
        prev, cur = np.ones_like(x64), first(x64)
        res = np.where(k == 0, prev, np.where(k == 1, cur, 0.0))
        for j in range(2, int(k.max(initial=1)) + 1):
            prev, cur = cur, step(x64, cur, prev, j)
            res = np.where(k == j, cur, res)
        return make(np.asarray(res).astype(dt), False, None, 0)

    return run


chebyshev_polynomial_t = _poly(lambda x, p, q, j: 2 * x * p - q, lambda x: x)
chebyshev_polynomial_u = _poly(lambda x, p, q, j: 2 * x * p - q, lambda x: 2 * x)
chebyshev_polynomial_v = _poly(lambda x, p, q, j: 2 * x * p - q, lambda x: 2 * x - 1)
chebyshev_polynomial_w = _poly(lambda x, p, q, j: 2 * x * p - q, lambda x: 2 * x + 1)
shifted_chebyshev_polynomial_t = _poly(
    lambda x, p, q, j: 2 * (2 * x - 1) * p - q, lambda x: 2 * x - 1
)
shifted_chebyshev_polynomial_u = _poly(
    lambda x, p, q, j: 2 * (2 * x - 1) * p - q, lambda x: 4 * x - 2
)
shifted_chebyshev_polynomial_v = _poly(
    lambda x, p, q, j: 2 * (2 * x - 1) * p - q, lambda x: 4 * x - 3
)
shifted_chebyshev_polynomial_w = _poly(
    lambda x, p, q, j: 2 * (2 * x - 1) * p - q, lambda x: 4 * x - 1
)
hermite_polynomial_h = _poly(lambda x, p, q, j: 2 * x * p - 2 * (j - 1) * q, lambda x: 2 * x)
hermite_polynomial_he = _poly(lambda x, p, q, j: x * p - (j - 1) * q, lambda x: x)
laguerre_polynomial_l = _poly(
    lambda x, p, q, j: ((2 * j - 1 - x) * p - (j - 1) * q) / j, lambda x: 1 - x
)
legendre_polynomial_p = _poly(
    lambda x, p, q, j: ((2 * j - 1) * x * p - (j - 1) * q) / j, lambda x: x
)


def __getattr__(name: str) -> Any:
    if name in _ALIASES:
        return getattr(importlib.import_module("engine"), _ALIASES[name])
    raise AttributeError(f"module 'torch.special' has no attribute '{name}'")
