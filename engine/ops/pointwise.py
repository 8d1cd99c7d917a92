"""Pointwise ops: arithmetic, powers, transcendental and activation functions, comparisons.

Each op's forward (on ndarrays) sits above its node, whose `apply` is the derivative written
with engine ops. Non-differentiable points follow PyTorch: relu'(0)=0, abs'(0)=0,
sqrt'(0)=inf, clamp passes the gradient at its bounds, maximum/minimum split ties in half.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, overload

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.forward_ad import FW
from engine.autograd.graph import Grads
from engine.ops._core import (
    OpNode,
    as_tensor,
    binary_arrays,
    broadcast_error,
    bshapes,
    float_array,
    in_shape,
    opmath,
    record,
    unbroadcast,
)
from engine.ops.inplace import type_name
from engine.ops.table import Op

# PyTorch computes 1/0, log(0), sqrt(-1) silently (inf, -inf, nan); so does the engine.
# A per-call np.errstate costs about a microsecond, more than a tiny op itself.
np.seterr(all="ignore")


# -- add / sub ---------------------------------------------------------------------------
def add(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """self + alpha * other."""
    a, b, bt, rt = binary_arrays(self, other)
    _dtype.refuse_barely(rt, "add_stub")
    if alpha != 1:
        b = b * alpha
    try:
        out = np.add(a, b)
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    if out.dtype != rt:
        out = out.astype(rt)
    saved = {"alpha": alpha} if alpha != 1 else None
    return record(AddBackward0, out, (self, bt), saved, shapes=bshapes(self, bt, out))


class AddBackward0(OpNode):
    __slots__ = ()
    _name = "AddBackward0"
    _default_saved = {"alpha": 1}

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        (f0, _), (f1, _) = self.next_functions
        ga = gb = None
        if f0 is not None:
            ga = unbroadcast(g, in_shape(self, 0, g))  # type: ignore[arg-type]
        if f1 is not None:
            alpha = self._saved["alpha"] if self._saved else 1
            gb = unbroadcast(g if alpha == 1 else g * alpha, in_shape(self, 1, g))  # type: ignore[arg-type, operator]
        return [ga, gb]


def sub(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """self - alpha * other."""
    a, b, bt, rt = binary_arrays(self, other)
    _dtype.refuse_barely(rt, "add_stub")
    if (
        _dtype.kind(self._d.dtype) == "b"
        or type(other) is bool
        or (bt is not None and _dtype.kind(bt._d.dtype) == "b")
    ):
        raise _bool_sub_error(rt)
    if alpha != 1:
        b = b * alpha
    try:
        out = np.subtract(a, b)
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    if out.dtype != rt:
        out = out.astype(rt)
    saved = {"alpha": alpha} if alpha != 1 else None
    return record(SubBackward0, out, (self, bt), saved, shapes=bshapes(self, bt, out))


class SubBackward0(OpNode):
    __slots__ = ()
    _name = "SubBackward0"
    _default_saved = {"alpha": 1}

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        (f0, _), (f1, _) = self.next_functions
        alpha = self._saved["alpha"] if self._saved else 1
        ga = unbroadcast(g, in_shape(self, 0, g)) if f0 is not None else None
        gb = (
            unbroadcast(-g if alpha == 1 else g * -alpha, in_shape(self, 1, g))
            if f1 is not None
            else None
        )
        return [ga, gb]


def _bool_sub_error(rt: np.dtype[Any]) -> RuntimeError:
    if _dtype.kind(rt) == "b":
        return RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
            "`^` or `logical_xor()` operator instead."
        )
    return RuntimeError(
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
        "to invert a mask, use the `~` or `logical_not()` operator instead."
    )


def rsub(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    """other - alpha * self, for a scalar `other` (PyTorch's `2 - x`)."""
    if isinstance(other, Tensor):
        return sub(other, self, alpha=alpha)
    a, b, _, rt = binary_arrays(self, other)
    if _dtype.kind(self._d.dtype) == "b" or type(other) is bool:
        raise _bool_sub_error(rt)
    out = np.subtract(b, a * alpha if alpha != 1 else a)
    if out.dtype != rt:
        out = out.astype(rt)
    return record(RsubBackward1, out, (self,), {"alpha": alpha} if alpha != 1 else None)


class RsubBackward1(OpNode):
    __slots__ = ()
    _name = "RsubBackward1"
    _default_saved = {"alpha": 1}

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        alpha = self._saved["alpha"] if self._saved else 1
        assert g is not None
        return [-g if alpha == 1 else g * -alpha]


# -- mul / div ---------------------------------------------------------------------------
def mul(self: Tensor, other: Any) -> Tensor:
    """self * other."""
    a, b, bt, rt = binary_arrays(self, other)
    try:
        out = np.multiply(a, b)
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    if out.dtype != rt:
        out = out.astype(rt)
    # PyTorch saves each operand only when the other one needs a gradient (`_saved_self` is
    # None for `x * 2`), so saved-tensor hooks see only those packs
    saved = {
        "self": self if bt is not None and bt._rg else None,
        # a scalar `other` is also kept in a dual level: forward AD differentiates in `self`
        "other": other if self._rg or FW.on else None,
    }
    return record(MulBackward0, out, (self, bt), saved, shapes=bshapes(self, bt, out))


class MulBackward0(OpNode):
    __slots__ = ()
    _name = "MulBackward0"

    def __getattr__(self, name: str) -> Any:
        # PyTorch saves `self` only when `other` needs a gradient, and the reverse
        if name == "_saved_self":
            return _operand(self, "self", self.needs(1))
        if name == "_saved_other":
            return _operand(self, "other", self.needs(0))
        return super().__getattr__(name)

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        (f0, _), (f1, _) = self.next_functions
        ga = gb = None
        if f0 is not None:
            ga = unbroadcast(g * self.saved("other"), in_shape(self, 0, g))  # type: ignore[arg-type]
        if f1 is not None:
            gb = unbroadcast(g * self.saved("self"), in_shape(self, 1, g))  # type: ignore[arg-type]
        return [ga, gb]


def _operand(node: OpNode, key: str, kept: bool) -> Any:
    """A saved operand as PyTorch shows it: None when not kept, Python numbers as 0-dim."""
    if not kept:
        return None
    value = node.saved(key)
    if isinstance(value, Tensor):
        return value
    dt: Any = np.bool_ if type(value) is bool else np.int64 if type(value) is int else np.float64
    if type(value) is complex:
        dt = np.complex128
    return make(np.asarray(value, dtype=dt), False, None, 0)


_TRUE_DIVISION = "true"  # `rounding_mode` not given at all


def div(self: Tensor, other: Any, *, rounding_mode: str | None = _TRUE_DIVISION) -> Tensor:
    """self / other (true division; `rounding_mode` 'trunc' or 'floor' is not differentiable).

    Passing `rounding_mode=None` selects PyTorch's other overload: the same true division,
    recorded as DivBackward2 (as the `div.Tensor_mode` kernel is) instead of DivBackward0.
    """
    a, b, bt, rt = binary_arrays(self, other)
    if rounding_mode == "floor":
        _dtype.refuse_barely(rt, "div_floor_cpu")
    if rounding_mode is not None and rounding_mode is not _TRUE_DIVISION:
        q = np.floor_divide(a, b) if rounding_mode == "floor" else np.trunc(np.true_divide(a, b))
        if _dtype.kind(rt) != "f":
            q = (
                np.trunc(np.true_divide(a, b))
                if rounding_mode == "trunc"
                else np.floor_divide(a, b)
            )
        saved = {"self": self, "other": other, "rounding_mode": rounding_mode}
        q = np.asarray(q).astype(rt)
        return record(DivBackward2, q, (self, bt), saved, shapes=bshapes(self, bt, q))
    if _dtype.kind(rt) != "f" and _dtype.kind(rt) != "c":
        from engine._dtype import get_default_dtype

        # integer operands go to float from their own dtypes, not via their common int type
        rt = get_default_dtype().np
        a = self._d.astype(rt)
        b = bt._d.astype(rt) if bt is not None else b
    try:
        out = np.true_divide(a, b)
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    if out.dtype != rt:
        out = out.astype(rt)
    if rounding_mode is None:
        saved = {"other": other, "rounding_mode": None, "self": self}
        return record(DivBackward2, out, (self, bt), saved, shapes=bshapes(self, bt, out))
    saved = {"self": self, "other": other}
    return record(DivBackward0, out, (self, bt), saved, shapes=bshapes(self, bt, out))


class _DivNode(OpNode):
    """What a division node keeps: `other` always (d/dself = 1/other), `self` only when
    `other` needs a gradient (d/dother)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name == "_saved_self":
            return _operand(self, "self", self.needs(1))
        if name == "_saved_other":
            return _operand(self, "other", True)
        return super().__getattr__(name)


class DivBackward0(_DivNode):
    __slots__ = ()
    _name = "DivBackward0"

    def apply(self, grads: Grads) -> Grads:
        return _true_div_grads(self, grads)


def _true_div_grads(node: OpNode, grads: Grads) -> Grads:
    g = grads[0]
    (f0, _), (f1, _) = node.next_functions
    other = node.saved("other")
    ga = gb = None
    if f0 is not None:
        ga = unbroadcast(g / other, in_shape(node, 0, g))  # type: ignore[arg-type]
    if f1 is not None:
        s = node.saved("self")
        gb = unbroadcast(-g * s / (other * other), in_shape(node, 1, g))  # type: ignore[operator, arg-type]
    return [ga, gb]


class DivBackward2(_DivNode):
    """Division with rounding: zero gradient almost everywhere, as PyTorch."""

    __slots__ = ()
    _name = "DivBackward2"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        if self.saved("rounding_mode") is None:  # true division (rounding_mode=None given)
            return _true_div_grads(self, grads)
        ga = unbroadcast(g * 0, in_shape(self, 0, g)) if self.needs(0) else None
        gb = unbroadcast(g * 0, in_shape(self, 1, g)) if self.needs(1) else None
        return [ga, gb]


# -- pow ---------------------------------------------------------------------------------
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


# -- unary -------------------------------------------------------------------------------
def _rounded(fn: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]]) -> Any:
    """`fn` evaluated in float64 and rounded to float32 for float32 inputs.

    NumPy's float32 exp/tanh/sin differ from PyTorch's in the last bit for about a third of
    inputs, which shows in printed values; the correctly rounded result almost always agrees.
    """

    def run(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        if a.dtype == np.float32:
            return fn(a.astype(np.float64)).astype(np.float32)
        if a.dtype == np.complex64:
            return fn(a.astype(np.complex128)).astype(np.complex64)
        return fn(a)

    return run


_exp, _log, _sin, _cos, _tanh = map(_rounded, (np.exp, np.log, np.sin, np.cos, np.tanh))


def _unary(node: type[OpNode], fn: Any, self: Tensor, save_self: bool, save_result: bool) -> Tensor:
    out = opmath(fn, float_array(self))
    return record(
        node, out, (self,), {"self": self} if save_self else None, "result" if save_result else None
    )


def neg(self: Tensor) -> Tensor:
    _dtype.refuse_barely(self._d.dtype, "neg_cpu")
    if _dtype.kind(self._d.dtype) == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return record(NegBackward0, np.negative(self._d), (self,))


class NegBackward0(OpNode):
    __slots__ = ()
    _name = "NegBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [-grads[0]]  # type: ignore[operator]


def exp(self: Tensor) -> Tensor:
    return _unary(ExpBackward0, _exp, self, False, True)


class ExpBackward0(OpNode):
    __slots__ = ()
    _name = "ExpBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * self.saved("result")]


def log(self: Tensor) -> Tensor:
    return _unary(LogBackward0, _log, self, True, False)


class LogBackward0(OpNode):
    __slots__ = ()
    _name = "LogBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] / self.saved("self")]


def sqrt(self: Tensor) -> Tensor:
    return _unary(SqrtBackward0, np.sqrt, self, False, True)


class SqrtBackward0(OpNode):
    __slots__ = ()
    _name = "SqrtBackward0"

    def apply(self, grads: Grads) -> Grads:
        # sqrt'(0) = inf, as PyTorch: g / (2 * 0)
        return [grads[0] / (2 * self.saved("result"))]


def rsqrt(self: Tensor) -> Tensor:
    return _unary(RsqrtBackward0, lambda a: 1 / np.sqrt(a), self, False, True)


class RsqrtBackward0(OpNode):
    __slots__ = ()
    _name = "RsqrtBackward0"

    def apply(self, grads: Grads) -> Grads:
        r = self.saved("result")
        return [-0.5 * grads[0] * r * r * r]  # type: ignore[operator]


def abs(self: Tensor) -> Tensor:
    _dtype.refuse_barely(self._d.dtype, "abs_cpu")
    if _dtype.kind(self._d.dtype) == "c":  # a real result, with a non-holomorphic gradient
        from engine.ops.complex_polar import abs_complex

        return abs_complex(self)
    return record(AbsBackward0, np.abs(self._d), (self,), {"self": self})


class AbsBackward0(OpNode):
    __slots__ = ()
    _name = "AbsBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * sign(self.saved("self"))]


def sign(self: Tensor) -> Tensor:
    if _dtype.kind(self._d.dtype) == "c":
        raise NotImplementedError(
            "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
            "torch.sgn instead."
        )
    return record(SignBackward0, np.sign(self._d), (self,))


class SignBackward0(OpNode):
    __slots__ = ()
    _name = "SignBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * 0]  # type: ignore[operator, list-item]


def sin(self: Tensor) -> Tensor:
    return _unary(SinBackward0, _sin, self, True, False)


class SinBackward0(OpNode):
    __slots__ = ()
    _name = "SinBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * cos(self.saved("self"))]


def cos(self: Tensor) -> Tensor:
    return _unary(CosBackward0, _cos, self, True, False)


class CosBackward0(OpNode):
    __slots__ = ()
    _name = "CosBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * -sin(self.saved("self"))]


def tanh(self: Tensor) -> Tensor:
    return _unary(TanhBackward0, _tanh, self, False, True)


class TanhBackward0(OpNode):
    __slots__ = ()
    _name = "TanhBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.act_backward import tanh_backward

        return [tanh_backward(grads[0], self.saved("result"))]  # type: ignore[arg-type]


def _sigmoid(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    # split by sign so exp never overflows
    if a.dtype == np.float32:
        # PyTorch's float32 kernel: 1 / (1 + exp(-x)) in float32, with an accurate exp
        e32 = np.exp(-a.astype(np.float64)).astype(np.float32)
        return np.float32(1) / (np.float32(1) + e32)  # type: ignore[no-any-return]
    if _dtype.kind(a.dtype) == "c":
        return 1 / (1 + _exp(-a))  # type: ignore[no-any-return]
    out = np.empty_like(a)
    pos = a >= 0
    out[pos] = 1 / (1 + np.exp(-a[pos]))
    e = np.exp(a[~pos])
    out[~pos] = e / (1 + e)
    return out


def sigmoid(self: Tensor) -> Tensor:
    return _unary(SigmoidBackward0, _sigmoid, self, False, True)


class SigmoidBackward0(OpNode):
    __slots__ = ()
    _name = "SigmoidBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.act_backward import sigmoid_backward

        return [sigmoid_backward(grads[0], self.saved("result"))]  # type: ignore[arg-type]


def relu(self: Tensor) -> Tensor:
    return record(ReluBackward0, np.maximum(self._d, 0), (self,), None, "result")


class ReluBackward0(OpNode):
    __slots__ = ()
    _name = "ReluBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.act_backward import threshold_backward

        # PyTorch uses result > 0, so relu'(0) = 0
        return [threshold_backward(grads[0], self.saved("result"), 0)]  # type: ignore[arg-type]


def reciprocal(self: Tensor) -> Tensor:
    return _unary(ReciprocalBackward0, lambda a: 1 / a, self, False, True)


class ReciprocalBackward0(OpNode):
    __slots__ = ()
    _name = "ReciprocalBackward0"

    def apply(self, grads: Grads) -> Grads:
        r = self.saved("result")
        return [-grads[0] * r * r]  # type: ignore[operator]


# -- clamp / where / maximum / minimum ---------------------------------------------------
def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """Limit values to [min, max]; the gradient passes where min <= x <= max."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if _dtype.kind(self._d.dtype) == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        lo = as_tensor(min) if min is not None else None
        hi = as_tensor(max) if max is not None else None
        out = self._d
        if lo is not None:
            out = np.maximum(out, lo._d)
        if hi is not None:
            out = np.minimum(out, hi._d)
        saved = {"self": self, "min": lo, "max": hi}
        return record(ClampBackward0, out.astype(self._d.dtype, copy=False), (self, lo, hi), saved)
    out = self._d
    a, _, _, rt = binary_arrays(self, min if min is not None else max)
    out = a
    if min is not None:
        out = np.maximum(out, min)
    if max is not None:
        out = np.minimum(out, max)
    saved = {"self": self, "min": min, "max": max}
    return record(ClampBackward1, np.asarray(out, dtype=rt), (self,), saved)


class ClampBackward1(OpNode):
    __slots__ = ()
    _name = "ClampBackward1"

    def apply(self, grads: Grads) -> Grads:
        s = self.saved("self")
        lo, hi = self.saved("min"), self.saved("max")
        mask = s._d == s._d  # NaN inputs get no gradient
        if lo is not None:
            mask = mask & (s._d >= lo)
        if hi is not None:
            mask = mask & (s._d <= hi)
        return [grads[0] * make(mask, False, None, 0)]


class ClampBackward0(OpNode):
    __slots__ = ()
    _name = "ClampBackward0"
    _tensors = frozenset(("max", "min"))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        s = self.saved("self")
        lo, hi = self.saved("min"), self.saved("max")
        mask = np.ones(s._d.shape, bool)
        if lo is not None:
            mask &= s._d >= lo._d
        if hi is not None:
            mask &= s._d <= hi._d
        out: Grads = [g * make(mask, False, None, 0) if self.needs(0) else None]
        for i, b in ((1, lo), (2, hi)):
            if self.needs(i) and b is not None:
                sel = (s._d < b._d) if i == 1 else (s._d > b._d)
                out.append(unbroadcast(g * make(sel, False, None, 0), b._d.shape))
            else:
                out.append(None)
        return out


@overload
def where(condition: Any) -> tuple[Tensor, ...]: ...
@overload
def where(condition: Any, input: Any, other: Any) -> Tensor: ...
def where(condition: Any, input: Any = None, other: Any = None) -> Any:
    """Pick from `input` where `condition` holds, else from `other`."""
    if input is None and other is None:  # torch.where(cond) is nonzero(cond, as_tuple=True)
        from engine.ops.shape_composite import nonzero

        return nonzero(as_tensor(condition), as_tuple=True)
    c = as_tensor(condition)
    if _dtype.kind(c._d.dtype) != "b":
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            + type_name(c.dtype)
        )
    if isinstance(input, Tensor):
        a, b, bt, rt = binary_arrays(input, other)
        at: Tensor | None = input
    elif isinstance(other, Tensor):
        b, a, at, rt = binary_arrays(other, input)
        bt = other
    else:
        at = as_tensor(input)
        a, b, bt, rt = binary_arrays(at, other)
    out = np.where(c._d, a, b).astype(rt, copy=False)
    ash = at._d.shape if at is not None else ()
    bsh = bt._d.shape if bt is not None else ()
    return record(WhereBackward0, out, (at, bt), {"condition": c}, shapes=(ash, bsh))


class WhereBackward0(OpNode):
    __slots__ = ()
    _name = "WhereBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        c = self.saved("condition")
        zero = g * 0  # type: ignore[operator]
        out: Grads = []
        for i, pick in ((0, c._d), (1, ~c._d)):
            if self.needs(i):
                shape = in_shape(self, i, g)  # type: ignore[arg-type]
                out.append(unbroadcast(where(make(pick, False, None, 0), g, zero), shape))
            else:
                out.append(None)
        return out


def _tensor_args(name: str, self: Any, other: Any) -> None:
    for what, pos, x in (("input", 1, self), ("other", 2, other)):
        if not isinstance(x, Tensor):
            raise TypeError(
                f"{name}(): argument '{what}' (position {pos}) must be Tensor, not "
                f"{type(x).__name__}"
            )


def maximum(self: Tensor, other: Tensor) -> Tensor:
    _tensor_args("maximum", self, other)
    a, b, bt, rt = binary_arrays(self, other)
    if _dtype.kind(rt) == "c":
        raise RuntimeError("maximum not implemented for complex tensors.")
    try:
        out = np.maximum(a, b)
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    saved = {"self": self, "other": other}
    return record(MaximumBackward0, out, (self, bt), saved, shapes=bshapes(self, bt, out))


def minimum(self: Tensor, other: Tensor) -> Tensor:
    _tensor_args("minimum", self, other)
    a, b, bt, rt = binary_arrays(self, other)
    if _dtype.kind(rt) == "c":
        raise RuntimeError("minimum not implemented for complex tensors.")
    try:
        out = np.minimum(a, b)
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    saved = {"self": self, "other": other}
    return record(MinimumBackward0, out, (self, bt), saved, shapes=bshapes(self, bt, out))


class MaximumBackward0(OpNode):
    __slots__ = ()
    _name = "MaximumBackward0"
    _pick = staticmethod(np.greater)

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        s, o = self.saved("self"), self.saved("other")
        first = self._pick(s._d, o._d)
        tie = s._d == o._d
        wa = make((first + 0.5 * tie).astype(g._d.dtype), False, None, 0)  # type: ignore[union-attr]
        wb = make(((~first & ~tie) + 0.5 * tie).astype(g._d.dtype), False, None, 0)  # type: ignore[union-attr]
        return [
            unbroadcast(g * wa, in_shape(self, 0, g)) if self.needs(0) else None,  # type: ignore[arg-type]
            unbroadcast(g * wb, in_shape(self, 1, g)) if self.needs(1) else None,  # type: ignore[arg-type]
        ]


class MinimumBackward0(MaximumBackward0):
    __slots__ = ()
    _name = "MinimumBackward0"
    _pick = staticmethod(np.less)


# -- comparisons and logic (never differentiable) ----------------------------------------
def _compare(fn: Any) -> Callable[[Tensor, Any], Tensor]:
    def op(self: Tensor, other: Any) -> Tensor:
        a, b, _, _ = binary_arrays(self, other)
        if fn in _ORDERED:
            _dtype.refuse_barely(a.dtype, f"{_ORDERED[fn]}_cpu")
        if _dtype.kind(a.dtype) == "c" and fn in _ORDERED:
            raise NotImplementedError(
                f"\"{_ORDERED[fn]}_cpu\" not implemented for '{_CTYPE[a.dtype.name]}'"
            )
        try:
            return make(np.asarray(fn(a, b)), False, None, 0)
        except ValueError as e:
            raise broadcast_error(a, b, e) from None

    return op


_ORDERED = {np.less: "lt", np.less_equal: "le", np.greater: "gt", np.greater_equal: "ge"}
_CTYPE = {"complex64": "ComplexFloat", "complex128": "ComplexDouble"}
eq = _compare(np.equal)
ne = _compare(np.not_equal)
lt = _compare(np.less)
le = _compare(np.less_equal)
gt = _compare(np.greater)
ge = _compare(np.greater_equal)


def _logical(fn: Any) -> Callable[[Tensor, Any], Tensor]:
    def op(self: Tensor, other: Any) -> Tensor:
        a, b, _, rt = binary_arrays(self, other)
        if _dtype.kind(rt) == "f" and fn is not np.logical_and and fn is not np.logical_or:
            kernel = fn.__name__ + "_cpu"
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{_TYPE[rt.name]}'")
        try:
            out = np.asarray(fn(a, b))
        except ValueError as e:
            raise broadcast_error(a, b, e) from None
        return make(out.astype(rt, copy=False), False, None, 0)

    return op


_TYPE = {"float16": "Half", "bfloat16": "BFloat16", "float32": "Float", "float64": "Double"}
bitwise_and = _logical(np.bitwise_and)
bitwise_or = _logical(np.bitwise_or)
bitwise_xor = _logical(np.bitwise_xor)


def _shift(left: bool) -> Any:
    kernel = "lshift_cpu" if left else "rshift_cpu"

    def op(self: Any, other: Any) -> Tensor:
        if not isinstance(self, Tensor):  # torch.bitwise_left_shift(3, t), 2 << t
            self = make(np.asarray(self), False, None, 0)
        a, b, _, rt = binary_arrays(self, other)
        _dtype.refuse_barely(rt, kernel)
        if _dtype.kind(rt) not in "iub":
            raise NotImplementedError(
                f"\"{kernel}\" not implemented for '{_dtype.SCALAR_NAMES[rt.name]}'"
            )
        a, b = np.asarray(a).astype(rt), np.asarray(b).astype(rt)
        bits = rt.itemsize * 8
        # ATen's kernels: a count outside [0, bits) shifts everything out (the sign for >>)
        out_of_range = (b < 0) | (b >= bits)
        safe = np.where(out_of_range, 0, b).astype(rt)
        try:
            if left:
                out = np.where(out_of_range, 0, np.left_shift(a, safe))
            else:
                fill = np.right_shift(a, bits - 1) if _dtype.kind(rt) == "i" else 0
                out = np.where(out_of_range, fill, np.right_shift(a, safe))
        except ValueError as e:
            raise broadcast_error(a, b, e) from None
        return make(np.asarray(out).astype(rt, copy=False), False, None, 0)

    return op


bitwise_left_shift = _shift(left=True)
bitwise_right_shift = _shift(left=False)


def bitwise_not(self: Tensor) -> Tensor:
    _dtype.refuse_barely(self._d.dtype, "bitwise_not_cpu")
    return make(np.invert(self._d), False, None, 0)


def logical_not(self: Tensor) -> Tensor:
    return make(np.logical_not(self._d), False, None, 0)


def logical_and(self: Tensor, other: Any) -> Tensor:
    return make(np.logical_and(self._d, as_tensor(other)._d), False, None, 0)


def logical_or(self: Tensor, other: Any) -> Tensor:
    return make(np.logical_or(self._d, as_tensor(other)._d), False, None, 0)


def equal(self: Tensor, other: Tensor) -> bool:
    """True when both have the same shape and elements (a Python bool, no graph)."""
    a, b = self._d, other._d
    return a.shape == b.shape and bool(np.array_equal(a, b))


def isclose(
    self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Tensor:
    """|self - other| <= atol + rtol * |other|, elementwise (a bool tensor, no graph)."""
    return make(np.isclose(self._d, other._d, rtol, atol, equal_nan), False, None, 0)


def allclose(
    self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    """True when `isclose` holds everywhere (a Python bool)."""
    return bool(np.allclose(self._d, other._d, rtol, atol, equal_nan))


def isnan(self: Tensor) -> Tensor:
    return make(np.isnan(self._d), False, None, 0)


def isinf(self: Tensor) -> Tensor:
    return make(np.isinf(self._d), False, None, 0)


def isfinite(self: Tensor) -> Tensor:
    return make(np.isfinite(self._d), False, None, 0)


def isposinf(self: Tensor) -> Tensor:
    if _dtype.kind(self._d.dtype) == "c":
        raise RuntimeError("isposinf does not support complex inputs.")
    return make(np.isposinf(self._d), False, None, 0)


def isneginf(self: Tensor) -> Tensor:
    if _dtype.kind(self._d.dtype) == "c":
        raise RuntimeError("isneginf does not support complex inputs.")
    return make(np.isneginf(self._d), False, None, 0)


OPS = [
    Op("neg", neg, inplace=True, inplace_function=True, out=True, operators=("__neg__",)),
    Op("exp", exp, inplace=True, inplace_function=True, out=True),
    Op("log", log, inplace=True, inplace_function=True, out=True),
    Op("sqrt", sqrt, inplace=True, inplace_function=True, out=True),
    Op("rsqrt", rsqrt, inplace=True, inplace_function=True),
    Op("abs", abs, inplace=True, inplace_function=True, out=True, operators=("__abs__",)),
    Op("sign", sign, inplace=True),
    Op("sin", sin, inplace=True, inplace_function=True),
    Op("cos", cos, inplace=True, inplace_function=True),
    Op("tanh", tanh, inplace=True, inplace_function=True),
    Op("sigmoid", sigmoid, inplace=True, inplace_function=True),
    Op("relu", relu, inplace=True, inplace_function=True),
    Op("reciprocal", reciprocal, inplace=True, inplace_function=True),
    Op(
        "add",
        add,
        inplace=True,
        out=True,
        operators=("__add__", "__radd__"),
        inplace_operators=("__iadd__",),
    ),
    Op("sub", sub, inplace=True, out=True, operators=("__sub__",), inplace_operators=("__isub__",)),
    Op(
        "mul",
        mul,
        inplace=True,
        out=True,
        operators=("__mul__", "__rmul__"),
        inplace_operators=("__imul__",),
    ),
    Op(
        "div",
        div,
        inplace=True,
        out=True,
        operators=("__truediv__",),
        inplace_operators=("__itruediv__",),
    ),
    Op("pow", pow, inplace=True, out=True, operators=("__pow__",), inplace_operators=("__ipow__",)),
    Op("maximum", maximum, inplace=True, out=True),
    Op("minimum", minimum, inplace=True, out=True),
    Op("clamp", clamp, inplace=True, inplace_function=True, out=True),
    Op("rsub", rsub, operators=("__rsub__",)),
    Op("eq", eq, operators=("__eq__",)),
    Op("ne", ne, operators=("__ne__",)),
    Op("lt", lt, operators=("__lt__",)),
    Op("le", le, operators=("__le__",)),
    Op("gt", gt, operators=("__gt__",)),
    Op("ge", ge, operators=("__ge__",)),
    Op("bitwise_and", bitwise_and, operators=("__and__",)),
    Op("bitwise_or", bitwise_or, operators=("__or__",)),
    Op("bitwise_xor", bitwise_xor, operators=("__xor__",)),
    Op("bitwise_not", bitwise_not, operators=("__invert__",)),
    Op(
        "bitwise_left_shift",
        bitwise_left_shift,
        inplace=True,
        operators=("__lshift__",),
        inplace_operators=("__ilshift__",),
    ),
    Op(
        "bitwise_right_shift",
        bitwise_right_shift,
        inplace=True,
        operators=("__rshift__",),
        inplace_operators=("__irshift__",),
    ),
    Op("logical_not", logical_not),
    Op("logical_and", logical_and),
    Op("logical_or", logical_or),
    Op("isnan", isnan),
    Op("isinf", isinf),
    Op("isfinite", isfinite),
    Op("isposinf", isposinf),
    Op("isneginf", isneginf),
    Op("equal", equal),
    Op("isclose", isclose),
    Op("allclose", allclose),
    Op("where", where, method=False, out=True),
]
