"""Special functions with PyTorch's nodes: gamma family, erfinv, Bessel i0/i1, erfcx, ndtri,
log_ndtr, entr (`torch.lgamma`, `torch.special.*`, and their Tensor methods).

Values come from scipy.special in float64 (rounded to float32 for float32 inputs), except where
special_f32 repeats ATen's float kernels (digamma, trigamma, i0/i0e/i1/i1e, ndtri, entr,
log_ndtr), so float32 results match PyTorch's bit for bit. Derivatives
are written with engine ops, as in PyTorch's derivatives.yaml, so create_graph works.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops import special_f32
from engine.ops._core import OpNode, float_array, record
from engine.ops.table import Op

Array = np.ndarray[Any, Any]


def _sc() -> Any:
    """scipy.special, imported on first use (it costs ~0.2 s, most programs never need it)."""
    import scipy.special  # type: ignore[import-untyped]

    return scipy.special


def _eval(fn: Callable[[Array], Array], a: Array, f32: Callable[[Array], Array] | None) -> Array:
    """fn in float64, rounded to a's float type (or ATen's own float32 kernel when given)."""
    if a.dtype == np.float32 and f32 is not None:
        return f32(a)
    with np.errstate(all="ignore"):
        return np.asarray(fn(a.astype(np.float64))).astype(a.dtype)


def _unary(
    node: type[OpNode],
    x: Tensor,
    fn: Callable[[Array], Array],
    keep_result: bool = False,
    f32: Callable[[Array], Array] | None = None,
    **extra: Any,
) -> Tensor:
    out = _eval(fn, float_array(x), f32)
    saved: dict[str, Any] = {**extra, "self": x}
    return record(node, out, (x,), saved, "result" if keep_result else None)


class _Special(OpNode):
    """A one-input special function: `grad(g)` is its derivative times g."""

    __slots__ = ()

    def grad(self, g: Tensor) -> Tensor:
        raise NotImplementedError

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [self.grad(g)]

    @property
    def x(self) -> Tensor:  # (a one-input op: its saved self and result are tensors)
        x: Tensor = self.saved("self")
        return x

    @property
    def r(self) -> Tensor:
        r: Tensor = self.saved("result")
        return r


def _safe(x: Any) -> tuple[Any, Any]:
    """(x away from 0, mask of |x| > eps): ATen's guard in the i1/i1e gradients."""
    from engine._finfo import finfo

    eps = finfo(x.dtype).eps
    big = x.abs() > eps
    return x.where(big, eps), big


# -- the gamma family ----------------------------------------------------------------------
def lgamma(self: Tensor) -> Tensor:
    """log|Gamma(x)|."""
    # scipy's gammaln(-inf) is -inf; PyTorch (std::lgamma) gives inf
    return _unary(LgammaBackward0, self, lambda a: np.where(a == -np.inf, np.inf, _sc().gammaln(a)))


def _digamma64(a: Array) -> Array:
    # ATen: digamma(0) = -inf, digamma(-0) = inf (scipy gives the same sign for both)
    return np.where(a == 0, np.copysign(np.inf, -a), _sc().psi(a))


def digamma(self: Tensor) -> Tensor:
    """d/dx log Gamma(x)."""
    return _unary(DigammaBackward0, self, _digamma64, f32=special_f32.digamma)


def _polygamma_fn(n: int) -> tuple[Callable[[Array], Array], Any]:
    if n == 0:
        return _digamma64, special_f32.digamma
    if n == 1:
        return (lambda a: _sc().polygamma(1, a)), special_f32.trigamma
    return (lambda a: _sc().polygamma(n, a)), None


def polygamma(self: Any, n: Any) -> Tensor:
    """The n-th derivative of digamma; `torch.polygamma(n, x)` and `x.polygamma(n)` both land
    here (the two spellings order their arguments differently)."""
    if isinstance(self, int) and isinstance(n, Tensor):
        self, n = n, self
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    fn, f32 = _polygamma_fn(int(n))
    return _unary(PolygammaBackward0, self, fn, f32=f32, n=int(n))


def mvlgamma(self: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma of dimension p."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    a = float_array(self)
    c = p * (p - 1) / 4 * math.log(math.pi)

    def fn(v: Array) -> Array:
        args = v[..., None] + np.arange(-p / 2 + 0.5, 0.5, 0.5)
        return np.asarray(_sc().gammaln(args).sum(-1) + c)

    out = _eval(fn, a, None)
    return record(MvlgammaBackward0, out, (self,), {"p": p, "self": self})


class LgammaBackward0(_Special):
    __slots__ = ()
    _name = "LgammaBackward0"

    def grad(self, g: Tensor) -> Tensor:
        return g * digamma(self.x)


class DigammaBackward0(_Special):
    __slots__ = ()
    _name = "DigammaBackward0"

    def grad(self, g: Tensor) -> Tensor:
        return g * polygamma(self.x, 1)


class PolygammaBackward0(_Special):
    __slots__ = ()
    _name = "PolygammaBackward0"

    def grad(self, g: Tensor) -> Tensor:
        return g * polygamma(self.x, self.saved("n") + 1)


class MvlgammaBackward0(_Special):
    __slots__ = ()
    _name = "MvlgammaBackward0"

    def grad(self, g: Tensor) -> Tensor:
        from engine._creation import arange

        p = self.saved("p")
        args = arange(-p / 2 + 0.5, 0.5, 0.5, dtype=self.x.dtype) + self.x.unsqueeze(-1)
        return g * digamma(args).sum(-1)


# -- error function and normal distribution -----------------------------------------------
def erfinv(self: Tensor) -> Tensor:
    """The inverse of erf on (-1, 1)."""
    return _unary(ErfinvBackward0, self, lambda a: _sc().erfinv(a))


def special_erfcx(self: Tensor) -> Tensor:
    """exp(x^2) * erfc(x), without overflow."""
    return _unary(SpecialErfcxBackward0, self, lambda a: _sc().erfcx(a), keep_result=True)


def special_ndtri(self: Tensor) -> Tensor:
    """The inverse of the standard normal CDF."""
    out = _eval(lambda a: _sc().ndtri(a), float_array(self), special_f32.ndtri)
    return record(SpecialNdtriBackward0, out, (self,), {}, "result")


def special_log_ndtr(self: Tensor) -> Tensor:
    """log of the standard normal CDF."""

    def f32(a: Array) -> Array:  # ATen's float formula, from scipy's erfc and erfcx
        return special_f32.log_ndtr(a, _sc().erfc, _sc().erfcx)

    def f64(a: Array) -> Array:
        return np.asarray(_sc().log_ndtr(a))

    return _unary(SpecialLogNdtrBackward0, self, f64, keep_result=True, f32=f32)


def special_entr(self: Tensor) -> Tensor:
    """-x log x elementwise (0 at 0, -inf below 0)."""
    return _unary(SpecialEntrBackward0, self, lambda a: _sc().entr(a), f32=special_f32.entr)


class ErfinvBackward0(_Special):
    __slots__ = ()
    _name = "ErfinvBackward0"

    def grad(self, g: Tensor) -> Tensor:
        return 0.5 * math.sqrt(math.pi) * erfinv(self.x).pow(2).exp() * g


class SpecialErfcxBackward0(_Special):
    __slots__ = ()
    _name = "SpecialErfcxBackward0"

    def grad(self, g: Tensor) -> Tensor:
        return (2.0 * self.x * self.r - 2.0 / math.sqrt(math.pi)) * g


class SpecialNdtriBackward0(_Special):
    __slots__ = ()
    _name = "SpecialNdtriBackward0"

    def grad(self, g: Tensor) -> Tensor:
        return g * math.sqrt(2 * math.pi) * (self.r.square() / 2).exp()


class SpecialLogNdtrBackward0(_Special):
    __slots__ = ()
    _name = "SpecialLogNdtrBackward0"

    def grad(self, g: Tensor) -> Tensor:
        return g / math.sqrt(2 * math.pi) * (self.r + self.x.pow(2) / 2).neg().exp()


class SpecialEntrBackward0(_Special):
    __slots__ = ()
    _name = "SpecialEntrBackward0"

    def grad(self, g: Tensor) -> Tensor:
        return g * -(1 + self.x.log())


# -- modified Bessel functions --------------------------------------------------------------
def i0(self: Tensor) -> Tensor:
    """The modified Bessel function of the first kind, order 0."""
    return _unary(I0Backward0, self, lambda a: _sc().i0(a), f32=special_f32.i0)


def special_i0e(self: Tensor) -> Tensor:
    """exp(-|x|) * i0(x)."""
    fn = special_f32.i0e
    return _unary(SpecialI0EBackward0, self, lambda a: _sc().i0e(a), keep_result=True, f32=fn)


def special_i1(self: Tensor) -> Tensor:
    """The modified Bessel function of the first kind, order 1."""
    fn = special_f32.i1
    return _unary(SpecialI1Backward0, self, lambda a: _sc().i1(a), keep_result=True, f32=fn)


def special_i1e(self: Tensor) -> Tensor:
    """exp(-|x|) * i1(x)."""
    fn = special_f32.i1e
    return _unary(SpecialI1EBackward0, self, lambda a: _sc().i1e(a), keep_result=True, f32=fn)


class I0Backward0(_Special):
    __slots__ = ()
    _name = "I0Backward0"

    def grad(self, g: Tensor) -> Tensor:
        return g * special_i1(self.x)


class SpecialI0EBackward0(_Special):
    __slots__ = ()
    _name = "SpecialI0EBackward0"

    def grad(self, g: Tensor) -> Tensor:
        return g * (special_i1e(self.x) - self.x.sgn() * self.r)


class SpecialI1Backward0(_Special):
    __slots__ = ()
    _name = "SpecialI1Backward0"

    def grad(self, g: Tensor) -> Tensor:
        safe, big = _safe(self.x)
        d = i0(safe) - self.r * safe.reciprocal()
        return g * d.where(big, make(np.asarray(0.5, g._d.dtype), False, None, 0))  # type: ignore[no-any-return]


class SpecialI1EBackward0(_Special):
    __slots__ = ()
    _name = "SpecialI1EBackward0"

    def grad(self, g: Tensor) -> Tensor:
        safe, big = _safe(self.x)
        d = special_i0e(safe) - self.r * (safe.sgn() + safe.reciprocal())
        return g * d.where(big, make(np.asarray(0.5, g._d.dtype), False, None, 0))  # type: ignore[no-any-return]


OPS = [
    Op("lgamma", lgamma, inplace=True, out=True),
    Op("digamma", digamma, inplace=True, out=True),
    Op("polygamma", polygamma, inplace=True, out=True),
    Op("mvlgamma", mvlgamma, inplace=True, out=True),
    Op("erfinv", erfinv, inplace=True, out=True),
    Op("i0", i0, inplace=True, out=True),
]
