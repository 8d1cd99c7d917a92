"""More unary pointwise ops: rounding, trigonometric/hyperbolic, logs, erf, and PyTorch's aliases.

Each op is one PyTorch node; the nodes are `_unary_node`s, each a derivative written with
engine ops (so `create_graph=True` works). Rounding ops have a zero gradient everywhere and keep
integer dtypes, as PyTorch does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops import pointwise as pw
from engine.ops._core import OpNode, float_array, record, variant
from engine.ops.inplace import type_name
from engine.ops.pointwise.comparison import inplace_graph
from engine.ops.table import Op

_Grad = Callable[[OpNode, Tensor], Tensor]
_LN2, _LN10 = math.log(2.0), math.log(10.0)


class _UnaryBackward(OpNode):
    """A one-input node whose gradient is `derivative(g)`; each op's node is its `variant`."""

    __slots__ = ()

    def derivative(self, g: Tensor) -> Tensor:
        raise NotImplementedError

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [self.derivative(g)]


def _unary_node(name: str, derivative: _Grad) -> type[_UnaryBackward]:
    """The node `name` (a `variant` of `_UnaryBackward`) whose gradient is `derivative(node, g)`."""
    return variant(_UnaryBackward, name, derivative=derivative)


def _f32(fn: Any) -> Any:
    """`fn` in float64, rounded to float32 for float32 inputs (PyTorch's last-bit results)."""

    def run(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        if a.dtype == np.float32:
            return np.asarray(fn(a.astype(np.float64))).astype(np.float32)
        return np.asarray(fn(a)).astype(a.dtype, copy=False)

    return run


def _s(n: OpNode) -> Tensor:
    t: Tensor = n.saved("self")
    return t


def _r(n: OpNode) -> Tensor:
    t: Tensor = n.saved("result")
    return t


def _zero(n: OpNode, g: Tensor) -> Tensor:
    return g * 0


# -- rounding (zero gradient; integers pass through unchanged) -----------------------------
FloorBackward0 = _unary_node("FloorBackward0", _zero)
CeilBackward0 = _unary_node("CeilBackward0", _zero)
RoundBackward0 = _unary_node("RoundBackward0", _zero)
RoundBackward1 = _unary_node("RoundBackward1", _zero)
TruncBackward0 = _unary_node("TruncBackward0", _zero)
SgnBackward0 = _unary_node("SgnBackward0", _zero)


def _rounding(node: type[OpNode], fn: Any, self: Tensor) -> Tensor:
    d = self._d
    if _dtype.kind(d.dtype) == "c":
        what = node._name[:-9].lower()
        if what == "round":
            raise NotImplementedError("\"round_vml_cpu\" not implemented for 'ComplexFloat'")
        raise NotImplementedError(f"{what} is not supported for complex inputs")
    out = d.copy() if _dtype.kind(d.dtype) in "iub" else fn(d)
    return record(node, out, (self,))


def floor(self: Tensor) -> Tensor:
    return _rounding(FloorBackward0, np.floor, self)


def ceil(self: Tensor) -> Tensor:
    return _rounding(CeilBackward0, np.ceil, self)


def trunc(self: Tensor) -> Tensor:
    return _rounding(TruncBackward0, np.trunc, self)


def round(self: Tensor, *, decimals: int | None = None) -> Tensor:
    """Round half to even (NumPy's rule is PyTorch's), optionally to `decimals` places."""
    if decimals is None:  # an explicit decimals=0 is the other overload (RoundBackward1)
        return _rounding(RoundBackward0, np.round, self)
    if _dtype.kind(self._d.dtype) in "iub":
        from engine.ops.reduce_stats import _type_name

        kernel = "round_vml_cpu" if self._d.dtype == np.int64 else "round_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(self._d)}'")
    return record(RoundBackward1, np.round(self._d, decimals), (self,))


def sgn(self: Tensor) -> Tensor:
    return record(SgnBackward0, np.sign(self._d), (self,), {"self": self}, "result")


FracBackward0 = _unary_node("FracBackward0", lambda n, g: g)


def frac(self: Tensor) -> Tensor:
    d = self._d
    if _dtype.kind(d.dtype) in "iub":
        raise NotImplementedError(f"\"frac_cpu\" not implemented for '{type_name(self.dtype)}'")
    return record(FracBackward0, d - np.trunc(d), (self,))


# -- transcendental --------------------------------------------------------------------------
def _unary(node: type[OpNode], fn: Any, self: Tensor, save: str) -> Tensor:
    """Float op saving `self` ("self"), its result ("result") or nothing ("")."""
    out = fn(float_array(self))
    saved = {"self": self} if save == "self" else None
    return record(node, out, (self,), saved, "result" if save == "result" else None)


def _sq(t: Tensor) -> Tensor:
    return t * t


TanBackward0 = _unary_node("TanBackward0", lambda n, g: g * (1 + _sq(_r(n))))
SinhBackward0 = _unary_node("SinhBackward0", lambda n, g: g * cosh(_s(n)))
CoshBackward0 = _unary_node("CoshBackward0", lambda n, g: g * sinh(_s(n)))
AsinBackward0 = _unary_node("AsinBackward0", lambda n, g: g / pw.sqrt(1 - _sq(_s(n))))
AcosBackward0 = _unary_node("AcosBackward0", lambda n, g: -g / pw.sqrt(1 - _sq(_s(n))))
AtanBackward0 = _unary_node("AtanBackward0", lambda n, g: g / (1 + _sq(_s(n))))
AsinhBackward0 = _unary_node("AsinhBackward0", lambda n, g: g / pw.sqrt(_sq(_s(n)) + 1))
AcoshBackward0 = _unary_node("AcoshBackward0", lambda n, g: g / pw.sqrt(_sq(_s(n)) - 1))
AtanhBackward0 = _unary_node("AtanhBackward0", lambda n, g: g / (1 - _sq(_s(n))))
Log1PBackward0 = _unary_node("Log1PBackward0", lambda n, g: g / (_s(n) + 1))
Log2Backward0 = _unary_node("Log2Backward0", lambda n, g: g / (_s(n) * _LN2))
Log10Backward0 = _unary_node("Log10Backward0", lambda n, g: g / (_s(n) * _LN10))
Expm1Backward0 = _unary_node("Expm1Backward0", lambda n, g: g * (_r(n) + 1))
Exp2Backward0 = _unary_node("Exp2Backward0", lambda n, g: g * _r(n) * _LN2)
Deg2RadBackward0 = _unary_node("Deg2RadBackward0", lambda n, g: g * (math.pi / 180))
Rad2DegBackward0 = _unary_node("Rad2DegBackward0", lambda n, g: g * (180 / math.pi))
_ERF_K = 2.0 / math.sqrt(math.pi)
ErfBackward0 = _unary_node("ErfBackward0", lambda n, g: g * _ERF_K * pw.exp(-_sq(_s(n))))
ErfcBackward0 = _unary_node("ErfcBackward0", lambda n, g: g * -_ERF_K * pw.exp(-_sq(_s(n))))

_erf = _f32(np.vectorize(math.erf, otypes=[np.float64]))
_erfc = _f32(np.vectorize(math.erfc, otypes=[np.float64]))


def tan(self: Tensor) -> Tensor:
    return _unary(TanBackward0, _f32(np.tan), self, "result")


def sinh(self: Tensor) -> Tensor:
    return _unary(SinhBackward0, _f32(np.sinh), self, "self")


def cosh(self: Tensor) -> Tensor:
    return _unary(CoshBackward0, _f32(np.cosh), self, "self")


def asin(self: Tensor) -> Tensor:
    return _unary(AsinBackward0, _f32(np.arcsin), self, "self")


def acos(self: Tensor) -> Tensor:
    return _unary(AcosBackward0, _f32(np.arccos), self, "self")


def atan(self: Tensor) -> Tensor:
    return _unary(AtanBackward0, _f32(np.arctan), self, "self")


def asinh(self: Tensor) -> Tensor:
    return _unary(AsinhBackward0, _f32(np.arcsinh), self, "self")


def acosh(self: Tensor) -> Tensor:
    return _unary(AcoshBackward0, _f32(np.arccosh), self, "self")


def atanh(self: Tensor) -> Tensor:
    return _unary(AtanhBackward0, _f32(np.arctanh), self, "self")


def log1p(self: Tensor) -> Tensor:
    return _unary(Log1PBackward0, _f32(np.log1p), self, "self")


def log2(self: Tensor) -> Tensor:
    return _unary(Log2Backward0, _f32(np.log2), self, "self")


def log10(self: Tensor) -> Tensor:
    return _unary(Log10Backward0, _f32(np.log10), self, "self")


def expm1(self: Tensor) -> Tensor:
    return _unary(Expm1Backward0, _f32(np.expm1), self, "result")


def exp2(self: Tensor) -> Tensor:
    return _unary(Exp2Backward0, _f32(np.exp2), self, "result")


def deg2rad(self: Tensor) -> Tensor:
    return _unary(Deg2RadBackward0, _f32(np.deg2rad), self, "")


def rad2deg(self: Tensor) -> Tensor:
    return _unary(Rad2DegBackward0, _f32(np.rad2deg), self, "")


def erf(self: Tensor) -> Tensor:
    return _unary(ErfBackward0, _erf, self, "self")


def erfc(self: Tensor) -> Tensor:
    return _unary(ErfcBackward0, _erfc, self, "self")


def _sinc_grad(n: OpNode, g: Tensor) -> Tensor:
    s = _s(n)
    px = s * math.pi
    d = (px * pw.cos(px) - pw.sin(px)) / (px * s)
    out: Tensor = pw.where(pw.eq(s, 0), 0.0, g * d)
    return out


SincBackward0 = _unary_node("SincBackward0", _sinc_grad)


def _sinc(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """sin(pi x) / (pi x) with pi x rounded to the input's type first, as PyTorch's kernel
    (so float32 sinc(1) is -2.7828e-08, not 0)."""
    px = a * a.dtype.type(math.pi)
    wide = px.astype(np.float64)
    out = np.where(a == 0, 1.0, np.sin(wide) / np.where(a == 0, 1.0, wide))
    return out.astype(a.dtype)


def sinc(self: Tensor) -> Tensor:
    return _unary(SincBackward0, _sinc, self, "self")


def _logit_grad(n: OpNode, g: Tensor) -> Tensor:
    s, eps = _s(n), n.saved("eps")
    d = g / (s * (1 - s))
    if eps is None:
        out: Tensor = pw.where((s < 0) | (s > 1), float("nan"), d)
    else:
        out = pw.where((s < eps) | (s > 1 - eps), 0.0, d)
    return out


LogitBackward0 = _unary_node("LogitBackward0", _logit_grad)


def logit(self: Tensor, eps: float | None = None) -> Tensor:
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when `eps` is given."""
    a = float_array(self)
    z = a if eps is None else np.clip(a, eps, 1 - eps)
    out = _f32(lambda x: np.log(x / (1 - x)))(z)
    return record(LogitBackward0, out, (self,), {"self": self, "eps": eps})


def _nan_to_num_grad(n: OpNode, g: Tensor) -> Tensor:
    return g * make(np.isfinite(_s(n)._d), False, None, 0)


NanToNumBackward0 = _unary_node("NanToNumBackward0", _nan_to_num_grad)


def nan_to_num(
    self: Tensor, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
) -> Tensor:
    """NaN to `nan`, infinities to `posinf`/`neginf` (default: the dtype's extremes)."""
    d = self._d
    out = d.copy() if _dtype.kind(d.dtype) != "f" else np.nan_to_num(d, True, nan, posinf, neginf)
    return record(NanToNumBackward0, out, (self,), {"self": self})


# -- aliases PyTorch documents under other names ---------------------------------------------
def square(self: Tensor) -> Tensor:
    return pw.pow(self, 2)


def positive(self: Tensor) -> Tensor:
    return self


fix = trunc
arcsin, arccos, arctan = asin, acos, atan
arcsinh, arccosh, arctanh = asinh, acosh, atanh
absolute, negative = pw.abs, pw.neg
multiply, subtract, divide, true_divide = pw.mul, pw.sub, pw.div, pw.div
greater, greater_equal, less, less_equal, not_equal = pw.gt, pw.ge, pw.lt, pw.le, pw.ne

OPS = [
    Op("floor", floor, inplace=True, inplace_function=True, out=True),
    Op("ceil", ceil, inplace=True, inplace_function=True, out=True),
    Op("trunc", trunc, inplace=True, inplace_function=True, out=True),
    Op("round", round, inplace=True, inplace_function=True, out=True),
    Op("frac", frac, inplace=True, inplace_function=True, out=True),
    Op("fix", fix, inplace=True, inplace_function=True, out=True),
    Op("sgn", sgn, method=False, function=False, inplace=True),
    Op("tan", tan, inplace=True, inplace_function=True, out=True),
    Op("sinh", sinh, inplace=True, inplace_function=True, out=True),
    Op("cosh", cosh, inplace=True, inplace_function=True, out=True),
    Op("asin", asin, inplace=True, inplace_function=True, out=True),
    Op("acos", acos, inplace=True, inplace_function=True, out=True),
    Op("atan", atan, inplace=True, inplace_function=True, out=True),
    Op("asinh", asinh, inplace=True, inplace_function=True, out=True),
    Op("acosh", acosh, inplace=True, inplace_function=True, out=True),
    Op("atanh", atanh, inplace=True, inplace_function=True, out=True),
    Op("log1p", log1p, inplace=True, inplace_function=True, out=True),
    Op("log2", log2, inplace=True, inplace_function=True, out=True),
    Op("log10", log10, inplace=True, inplace_function=True, out=True),
    Op("expm1", expm1, inplace=True, inplace_function=True, out=True),
    Op("exp2", exp2, inplace=True, inplace_function=True, out=True),
    Op("deg2rad", deg2rad, inplace=True, inplace_function=True, out=True),
    Op("rad2deg", rad2deg, inplace=True, inplace_function=True, out=True),
    Op("erf", erf, inplace=True, inplace_function=True, out=True),
    Op("erfc", erfc, inplace=True, inplace_function=True, out=True),
    Op("sinc", sinc, inplace=True, inplace_function=True, out=True),
    Op("logit", logit, inplace=True, inplace_function=True, out=True),
    Op("nan_to_num", nan_to_num, inplace=True, inplace_function=True, out=True),
    Op("square", square, inplace=True, inplace_function=True, out=True),
    Op("absolute", absolute, inplace=True, out=True),
    Op("negative", negative, inplace=True, inplace_function=True, out=True),
    Op("arcsin", arcsin, inplace=True, inplace_function=True),
    Op("arccos", arccos, inplace=True, inplace_function=True, out=True),
    Op("arctan", arctan, inplace=True, inplace_function=True),
    Op("arcsinh", arcsinh, inplace=True, inplace_function=True),
    Op("arccosh", arccosh, inplace=True, inplace_function=True),
    Op("arctanh", arctanh, inplace=True, inplace_function=True),
    Op("multiply", multiply, inplace=True, out=True),
    Op("subtract", subtract, inplace=True, out=True),
    Op("divide", divide, inplace=True, out=True),
    Op("true_divide", true_divide, inplace=True),
    *(
        Op(name, fn, inplace=True, out=True, inplace_graph=inplace_graph(base))
        for name, fn, base in (
            ("greater", greater, "Gt"),
            ("greater_equal", greater_equal, "Ge"),
            ("less", less, "Lt"),
            ("less_equal", less_equal, "Le"),
            ("not_equal", not_equal, "Ne"),
        )
    ),
    Op("positive", positive, operators=("__pos__",)),
]
