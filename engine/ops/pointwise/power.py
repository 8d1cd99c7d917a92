"""Pointwise powers: tensor ** scalar, tensor ** tensor and scalar ** tensor, with ATen's CPU
kernels' results (products for small exponents, integer results for negative integer powers).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor
from engine.autograd.graph import Grads
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
from engine.ops.pointwise.elementary import log
from engine.ops.pointwise.selection import where
from engine.ops.table import Op


def pow(self: Any, exponent: Any) -> Tensor:
    """self ** exponent: PyTorch's tensor^scalar, tensor^tensor and scalar^tensor forms."""
    if isinstance(self, Tensor):
        _dtype.refuse_barely(self._d.dtype, "pow")
    if not isinstance(self, Tensor):
        e = as_tensor(exponent) if not isinstance(exponent, Tensor) else exponent
        base = self
        ed = float_array(e) if isinstance(base, float | complex) else e._d
        if isinstance(base, complex):  # std::pow: exp(e log base), in e's complex precision
            ct = np.result_type(ed.dtype, np.complex64)
            out = np.exp(ed.astype(ct) * np.log(np.asarray(base, ct)))
            return record(
                PowBackward2, out, (e,), {"self": base, "exponent": e}, out_saved="result"
            )
        out = _power(np.asarray(base, dtype=ed.dtype), ed)
        return record(PowBackward2, out, (e,), {"self": base, "exponent": e}, out_saved="result")
    if isinstance(exponent, Tensor):
        a, b, bt, rt = binary_arrays(self, exponent)
        if _dtype.kind(rt) == "b":
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        try:
            # complex: std::pow's exp(b log a), in the tensor's precision (not NumPy's power)
            out = _power(a, b) if _dtype.kind(rt) != "c" else np.exp(b * np.log(a))
        except ValueError as e:
            raise broadcast_error(a, b, e) from None
        saved = {"self": self, "exponent": exponent}
        out = out.astype(rt, copy=False)
        return record(PowBackward1, out, (self, bt), saved, "result", bshapes(self, bt, out))
    a, b, _, rt = binary_arrays(self, exponent)
    if _dtype.kind(rt) in "iu" and isinstance(b, int) and b < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    try:
        out = _scalar_power(a, b) if rt in _FAST_POW_DTYPES else np.power(a, b)
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    saved = {"self": self, "exponent": exponent}
    return record(PowBackward0, out.astype(rt, copy=False), (self,), saved)


_FAST_POW_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _scalar_power(a: Any, b: Any) -> Any:
    """ATen's CPU kernel for a float tensor to a scalar power: products for 2, 3 and -2,
    sqrt, 1/sqrt and 1/x for 0.5, -0.5 and -1, std::pow otherwise (`x ** 3` is x*x*x there,
    which can differ from pow in the last bit)."""
    e = complex(b)
    if e.imag:
        return np.power(a, b)
    if e.real == 2:
        return a * a
    if e.real == 3:
        return a * a * a
    if e.real == -2:
        return 1 / (a * a)
    if e.real == 0.5:
        return np.sqrt(a)
    if e.real == -0.5:
        return 1 / np.sqrt(a)
    if e.real == -1:
        return 1 / a
    return np.power(a, b)


def _power(a: Any, b: Any) -> Any:
    """np.power, with PyTorch's integer results for negative integer exponents (0, or ±1)."""
    bd = np.asarray(b)
    if _dtype.kind(bd.dtype) not in "iu" or not np.any(bd < 0):
        return np.power(a, b)
    pos = np.power(a, np.where(bd < 0, 0, bd))
    odd = np.where(bd % 2 == 0, 1, -1)
    neg = np.where(a == 1, 1, np.where(a == -1, odd, 0))
    return np.where(bd < 0, neg, pos).astype(pos.dtype)


class PowBackward0(OpNode):
    __slots__ = ()
    _name = "PowBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        e = self.saved("exponent")
        if e == 0:
            return [g * 0]  # type: ignore[operator, list-item]
        from engine.ops.scalar_overloads import mul_scalar

        s = self.saved("self")
        # ATen's `grad * (exp * self.pow(exp - 1))`: a C++ double times a tensor is the scalar
        # overload, so under create_graph PowBackward0, MulBackward1, MulBackward0
        return [g * mul_scalar(s ** (e - 1), e)]


class PowBackward1(OpNode):
    __slots__ = ()
    _name = "PowBackward1"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        s, e = self.saved("self"), self.saved("exponent")
        ga = gb = None
        if self.needs(0):
            # where exponent == 0 the gradient is 0 even when self == 0 (PyTorch's masking)
            ga = unbroadcast(where(e == 0, 0.0, g * (e * s ** (e - 1))), in_shape(self, 0, g))  # type: ignore[arg-type]
        if self.needs(1):
            r = self.saved("result")
            # a complex exponent: PyTorch tests its real part
            ga_log = g * r * where((s == 0) & (e.real >= 0), 0.0, log(s))
            gb = unbroadcast(ga_log, in_shape(self, 1, g))  # type: ignore[arg-type]
        return [ga, gb]


class PowBackward2(OpNode):
    __slots__ = ()
    _name = "PowBackward2"
    _scalars = frozenset(("self",))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        base, e, r = self.saved("self"), self.saved("exponent"), self.saved("result")
        if base == 0:
            # 0 ** e has gradient 0 wherever e >= 0 (PyTorch masks the 0 * -inf)
            return [where(e >= 0, 0.0, g * r * float("-inf"))]
        log_base = complex(np.log(base)) if isinstance(base, complex) else float(np.log(base))
        return [g * r * log_base]


OPS = [
    Op("pow", pow, inplace=True, out=True, operators=("__pow__",), inplace_operators=("__ipow__",)),
]
