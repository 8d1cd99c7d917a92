"""More binary pointwise ops (atan2, hypot, lerp, addcmul, clamp_min, ...).

(The in-place random fills are in engine/ops/random_sampling.py.)

Forwards broadcast through `binary_arrays` (PyTorch's promotion); derivatives are written with
engine ops and undo broadcasting with `unbroadcast`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._dtype import type_name
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops import pointwise as pw
from engine.ops._core import (
    OpNode,
    as_tensor,
    binary_arrays,
    broadcast_error,
    bshapes,
    float_array,
    in_shape,
    record,
    unbroadcast,
)
from engine.ops.table import Op


def _floats(self: Tensor, other: Any) -> tuple[Any, Any, Tensor | None, Any]:
    """Broadcastable float operands (integers promote to the default float, as PyTorch)."""
    a, b, bt, rt = binary_arrays(self, other)
    if _dtype.kind(rt) != "f":
        rt = float_array(make(np.zeros(0, rt), False, None, 0)).dtype
    try:
        np.broadcast_shapes(np.shape(a), np.shape(b))
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    return np.asarray(a, rt), np.asarray(b, rt), bt, rt


def _two(node: type[OpNode], fn: Any, self: Tensor, other: Any, keep: bool = False) -> Tensor:
    a, b, bt, rt = _floats(self, other)
    wide = a.astype(np.float64) if rt == np.float32 else a
    out = np.asarray(fn(wide, b)).astype(rt)
    saved = {"self": self, "other": bt if bt is not None else other}
    shapes = bshapes(self, bt, out)
    return record(node, out, (self, bt), saved, "result" if keep else None, shapes)


class _Binary(OpNode):
    """A two-input op whose partial derivatives are `d0(s, o, g)` and `d1(s, o, g)`."""

    __slots__ = ()

    def d0(self, s: Any, o: Any, g: Tensor) -> Tensor:
        raise NotImplementedError

    def d1(self, s: Any, o: Any, g: Tensor) -> Tensor:
        raise NotImplementedError

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        s, o = self.saved("self"), self.saved("other")
        ga = unbroadcast(self.d0(s, o, g), in_shape(self, 0, g)) if self.needs(0) else None
        gb = unbroadcast(self.d1(s, o, g), in_shape(self, 1, g)) if self.needs(1) else None
        return [ga, gb]


class Atan2Backward0(_Binary):
    __slots__ = ()
    _name = "Atan2Backward0"

    def d0(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return g * o / (s * s + o * o)  # type: ignore[no-any-return]

    def d1(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return -g * s / (s * s + o * o)  # type: ignore[no-any-return]


class HypotBackward0(_Binary):
    __slots__ = ()
    _name = "HypotBackward0"

    def d0(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return g * s / self.saved("result")  # type: ignore[no-any-return]

    def d1(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return g * o / self.saved("result")  # type: ignore[no-any-return]


class XlogyBackward0(_Binary):
    __slots__ = ()
    _name = "XlogyBackward0"

    def d0(self, s: Any, o: Any, g: Tensor) -> Tensor:
        # PyTorch: xlogy(grad, other), zeroed only where self == 0 and other <= 0 (so a zero
        # self with a positive other still gets log(other))
        return xlogy(g, o).masked_fill((s == 0) & (o <= 0), 0.0)

    def d1(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return g * s / o  # type: ignore[no-any-return]


class LogaddexpBackward0(_Binary):
    __slots__ = ()
    _name = "LogaddexpBackward0"

    def d0(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return g / (pw.exp(o - s) + 1)

    def d1(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return g / (pw.exp(s - o) + 1)


class FmaxBackward0(_Binary):
    __slots__ = ()
    _name = "FmaxBackward0"

    def _pick(self, s: Any, o: Any) -> Tensor:
        return (s >= o) | pw.isnan(o)  # type: ignore[no-any-return]

    def d0(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return pw.where(self._pick(s, o), g, 0.0)

    def d1(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return pw.where(self._pick(s, o), 0.0, g)


class FminBackward0(FmaxBackward0):
    __slots__ = ()
    _name = "FminBackward0"

    def _pick(self, s: Any, o: Any) -> Tensor:
        return (s <= o) | pw.isnan(o)  # type: ignore[no-any-return]


def atan2(self: Tensor, other: Any) -> Tensor:
    return _two(Atan2Backward0, np.arctan2, self, other)


def hypot(self: Tensor, other: Any) -> Tensor:
    return _two(HypotBackward0, np.hypot, self, other, keep=True)


def xlogy(self: Tensor, other: Any) -> Tensor:
    """x * log(y), defined as 0 where x == 0 (unless y is NaN)."""

    def fn(x: Any, y: Any) -> Any:
        return np.where((x == 0) & ~np.isnan(y), 0.0, x * np.log(y))

    return _two(XlogyBackward0, fn, self, other)


def logaddexp(self: Tensor, other: Any) -> Tensor:
    return _two(LogaddexpBackward0, np.logaddexp, self, other)


def logaddexp2(self: Tensor, other: Any) -> Tensor:
    """log2(2**self + 2**other), without overflow."""
    return _two(Logaddexp2Backward0, np.logaddexp2, self, other)


class Logaddexp2Backward0(_Binary):
    __slots__ = ()
    _name = "Logaddexp2Backward0"

    def d0(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return g / (pw.pow(2.0, o - s) + 1)

    def d1(self, s: Any, o: Any, g: Tensor) -> Tensor:
        return g / (pw.pow(2.0, s - o) + 1)


def fmax(self: Tensor, other: Any) -> Tensor:
    return _two(FmaxBackward0, np.fmax, self, other)


def fmin(self: Tensor, other: Any) -> Tensor:
    return _two(FminBackward0, np.fmin, self, other)


def logical_xor(self: Tensor, other: Any) -> Tensor:
    return make(np.logical_xor(self._d, as_tensor(other)._d), False, None, 0)


def float_power(self: Any, exponent: Any) -> Tensor:
    """pow in float64, or complex128 when either side is complex (tensor inputs are cast
    first, so the graph shows the casts)."""
    cplx = any(
        _dtype.kind(x._d.dtype) == "c" if isinstance(x, Tensor) else isinstance(x, complex)
        for x in (self, exponent)
    )
    target, scalar = (_dtype.complex128, complex) if cplx else (_dtype.float64, float)
    base = self.to(target) if isinstance(self, Tensor) else scalar(self)
    exp = exponent.to(target) if isinstance(exponent, Tensor) else scalar(exponent)
    if not isinstance(base, Tensor) and not isinstance(exp, Tensor):
        return pw.pow(as_tensor(base), exp)
    return pw.pow(base, exp)  # a number base: PowBackward2


def _float_power_check(self: Tensor, out: Tensor) -> None:
    """float_power_ keeps its base's dtype only when that is the result's (double)."""
    if out.dtype is not self.dtype:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {type_name(self.dtype)} but the "
            f"operation's result requires dtype {type_name(out.dtype)}"
        )


# -- clamp_min / clamp_max ---------------------------------------------------------------------
class ClampMinBackward0(OpNode):
    __slots__ = ()
    _name = "ClampMinBackward0"
    _ge = True

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        s, bound = self.saved("self"), self.saved(self._bound)
        keep = (s._d >= bound) if self._ge else (s._d <= bound)
        return [g * make(keep, False, None, 0)]

    @property
    def _bound(self) -> str:
        return "min" if self._ge else "max"


class ClampMaxBackward0(ClampMinBackward0):
    __slots__ = ()
    _name = "ClampMaxBackward0"
    _ge = False


class ClampMinBackward1(OpNode):
    __slots__ = ()
    _name = "ClampMinBackward1"
    _ge = True

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        key = "min" if self._ge else "max"
        s, b = self.saved("self"), self.saved(key)
        keep = (s._d >= b._d) if self._ge else (s._d <= b._d)
        ga = unbroadcast(g * make(keep, False, None, 0), in_shape(self, 0, g))
        gb = unbroadcast(g * make(~keep, False, None, 0), in_shape(self, 1, g))
        return [ga if self.needs(0) else None, gb if self.needs(1) else None]


class ClampMaxBackward1(ClampMinBackward1):
    __slots__ = ()
    _name = "ClampMaxBackward1"
    _ge = False


def _clamp_one(self: Tensor, bound: Any, low: bool) -> Tensor:
    fn = np.maximum if low else np.minimum
    key = "min" if low else "max"
    a, b, bt, rt = binary_arrays(self, bound)
    out = np.asarray(fn(a, b), rt)
    if bt is None:
        node = ClampMinBackward0 if low else ClampMaxBackward0
        return record(node, out, (self,), {"self": self, key: bound})
    node1 = ClampMinBackward1 if low else ClampMaxBackward1
    shapes = bshapes(self, bt, out)
    return record(node1, out, (self, bt), {"self": self, key: bt}, shapes=shapes)


def clamp_min(self: Tensor, min: Any) -> Tensor:
    return _clamp_one(self, min, True)


def clamp_max(self: Tensor, max: Any) -> Tensor:
    return _clamp_one(self, max, False)


# -- lerp / addcmul / addcdiv -------------------------------------------------------------------
class LerpBackward0(OpNode):
    __slots__ = ()
    _name = "LerpBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        w = self.saved("weight")
        ga = unbroadcast(g * (1 - w), in_shape(self, 0, g)) if self.needs(0) else None
        gb = unbroadcast(g * w, in_shape(self, 1, g)) if self.needs(1) else None
        return [ga, gb]


class LerpBackward1(OpNode):
    __slots__ = ()
    _name = "LerpBackward1"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        s, e, w = self.saved("self"), self.saved("end"), self.saved("weight")
        parts = [g * (1 - w), g * w, g * (e - s)]
        return [unbroadcast(p, t._d.shape) if self.needs(i) else None for i, (p, t) in
                enumerate(zip(parts, (s, e, w), strict=True))]  # fmt: skip


def lerp(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    """self + weight * (end - self)."""
    a, b = self._d, end._d
    if not isinstance(weight, Tensor):
        out = np.asarray(a + weight * (b - a), a.dtype)
        return record(LerpBackward0, out, (self, end), {"weight": weight}, shapes=_shp(a, b, out))
    out = np.asarray(a + weight._d * (b - a), a.dtype)
    saved = {"self": self, "end": end, "weight": weight}
    return record(LerpBackward1, out, (self, end, weight), saved)


def _shp(*arrays: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(np.shape(x) for x in arrays)


class AddcmulBackward0(OpNode):
    __slots__ = ()
    _name = "AddcmulBackward0"
    _div = False

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        t1, t2, v = self.saved("tensor1"), self.saved("tensor2"), self.saved("value")
        if self._div:
            parts = [g, g * v / t2, -g * v * t1 / (t2 * t2)]
        else:
            parts = [g, g * v * t2, g * v * t1]
        return [unbroadcast(p, in_shape(self, i, g)) if self.needs(i) else None
                for i, p in enumerate(parts)]  # fmt: skip


class AddcdivBackward0(AddcmulBackward0):
    __slots__ = ()
    _name = "AddcdivBackward0"
    _div = True


def _addc(node: type[OpNode], fn: Any, self: Tensor, t1: Tensor, t2: Tensor, value: Any) -> Tensor:
    out = np.asarray(self._d + value * fn(t1._d, t2._d), self._d.dtype)
    saved = {"tensor1": t1, "tensor2": t2, "value": value}
    shapes = _shp(self._d, t1._d, t2._d)
    return record(node, out, (self, t1, t2), saved, shapes=shapes)


def addcmul(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    return _addc(AddcmulBackward0, np.multiply, self, tensor1, tensor2, value)


def addcdiv(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    return _addc(AddcdivBackward0, np.true_divide, self, tensor1, tensor2, value)


arctan2 = atan2  # NumPy's name, PyTorch's alias

OPS = [
    Op("atan2", atan2, inplace=True, out=True),
    Op("arctan2", arctan2, inplace=True, out=True),
    Op("hypot", hypot, inplace=True, out=True),
    Op("xlogy", xlogy, inplace=True, inplace_function=True, out=True),
    Op("logaddexp", logaddexp, out=True),
    Op("logaddexp2", logaddexp2, out=True),
    Op("fmax", fmax, out=True),
    Op("fmin", fmin, out=True),
    Op("float_power", float_power, out=True, inplace=True, inplace_check=_float_power_check),
    Op("logical_xor", logical_xor, out=True, inplace=True),
    Op("clamp_min", clamp_min, inplace=True, inplace_function=True, out=True),
    Op("clamp_max", clamp_max, inplace=True, inplace_function=True, out=True),
    Op("lerp", lerp, inplace=True, out=True),
    Op("addcmul", addcmul, inplace=True, out=True),
    Op("addcdiv", addcdiv, inplace=True, out=True),
]
