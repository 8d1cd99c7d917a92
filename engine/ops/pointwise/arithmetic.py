"""Pointwise arithmetic: add, sub, rsub, mul, div (PyTorch's promotion and broadcasting).

Each forward broadcasts through `binary_arrays`; each node undoes broadcasting with
`unbroadcast`. Saved operands follow PyTorch: `mul` keeps each only when the other needs a grad.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.forward_ad import FW
from engine.autograd.graph import Grads
from engine.ops._core import (
    OpNode,
    binary_arrays,
    broadcast_error,
    bshapes,
    in_shape,
    record,
    unbroadcast,
)
from engine.ops.table import Op


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


OPS = [
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
    Op("rsub", rsub, operators=("__rsub__",)),
]
