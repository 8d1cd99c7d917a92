"""Floor division and remainders: `//` (no derivative in PyTorch), `%`, `fmod`."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import (
    OpNode,
    as_tensor,
    binary_arrays,
    broadcast_error,
    bshapes,
    in_shape,
    record,
    unbroadcast,
)
from engine.ops.table import Op


def _int_zero_check(b: Any, rt: np.dtype[Any]) -> None:
    if _dtype.kind(rt) in "iub" and np.any(np.asarray(b) == 0):
        raise RuntimeError("ZeroDivisionError")


def floor_divide(self: Any, other: Any) -> Tensor:
    """self // other, rounding toward minus infinity (PyTorch records no derivative)."""
    if not isinstance(self, Tensor):  # `3 // t`: a Python number keeps scalar promotion
        b, a, _, rt = binary_arrays(as_tensor(other), self)
        _int_zero_check(b, rt)
        out = np.asarray(np.floor_divide(a, b)).astype(rt, copy=False)
        return not_implemented_node(out, (other,), "floor_divide")
    a, b, bt, rt = binary_arrays(self, other)
    _dtype.refuse_barely(rt, "div_floor_cpu")
    _int_zero_check(b, rt)
    try:
        out = np.asarray(np.floor_divide(a, b)).astype(rt, copy=False)
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    return not_implemented_node(out, (self, bt), "floor_divide")


def remainder(self: Any, other: Any) -> Tensor:
    """Python's `%`: the result takes the sign of `other`."""
    if not isinstance(self, Tensor):  # `3 % t`: PyTorch has no derivative for this form
        a, b, _, rt = binary_arrays(as_tensor(other), self)
        _int_zero_check(a, rt)
        out = np.asarray(_py_remainder(b, a)).astype(rt, copy=False)
        return not_implemented_node(out, (other,), "remainder")
    return _mod(self, other, _py_remainder, RemainderBackward0, RemainderBackward1)


def _py_remainder(a: Any, b: Any) -> Any:
    """PyTorch's float remainder: fmod, moved by `b` when the signs differ (keeps +0.0)."""
    if _dtype.kind(np.result_type(a, b)) != "f":
        return np.remainder(a, b)
    m = np.fmod(a, b)
    return np.where((m != 0) & ((np.asarray(b) < 0) != (m < 0)), m + b, m)


def fmod(self: Tensor, other: Any) -> Tensor:
    """C's fmod: the result takes the sign of `self`."""
    return _mod(self, other, np.fmod, FmodBackward0, FmodBackward1)


def _mod(self: Tensor, other: Any, fn: Any, scalar_node: Any, tensor_node: Any) -> Tensor:
    a, b, bt, rt = binary_arrays(self, other)
    _dtype.refuse_barely(rt, "remainder_cpu")
    if _dtype.kind(rt) == "b":
        name = "remainder_cpu" if fn is _py_remainder else "fmod_cpu"
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")
    _int_zero_check(b, rt)
    try:
        out = np.asarray(fn(a, b)).astype(rt, copy=False)
    except ValueError as e:
        raise broadcast_error(a, b, e) from None
    if bt is None:
        return record(scalar_node, out, (self,))
    saved = {"self": self, "other": bt}
    return record(tensor_node, out, (self, bt), saved, shapes=bshapes(self, bt, out))


class NotImplementedBackward(OpNode):
    """PyTorch's `NotImplemented` node: an op whose derivative PyTorch does not define."""

    __slots__ = ()
    _name = "torch::autograd::NotImplemented"

    def __repr__(self) -> str:
        return f"<NotImplemented object at {id(self):#x}>"

    def apply(self, grads: Grads) -> Grads:
        raise RuntimeError(f"derivative for aten::{self.__dict__['op']} is not implemented")


def not_implemented_node(out: np.ndarray[Any, Any], inputs: tuple[Any, ...], op: str) -> Tensor:
    # not a saved value: PyTorch shows no `_saved_op`
    return record(NotImplementedBackward, out, requiring_grad(inputs), keep={"op": op})


def requiring_grad(inputs: tuple[Any, ...]) -> tuple[Tensor, ...]:
    """The inputs a NotImplemented node has edges to: PyTorch's has one per input that requires
    grad (`a // b` with only `a` requiring grad has one), not one per input."""
    return tuple(t for t in inputs if isinstance(t, Tensor) and t.requires_grad)


class RemainderBackward0(OpNode):
    __slots__ = ()
    _name = "RemainderBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0]]


class RemainderBackward1(OpNode):
    """d/dother of self - floor(self / other) * other is -floor(self / other)."""

    __slots__ = ()
    _name = "RemainderBackward1"
    _round: Any = staticmethod(np.floor)

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        ga = unbroadcast(g, in_shape(self, 0, g)) if self.needs(0) else None
        gb = None
        if self.needs(1):
            s, o = self.saved("self"), self.saved("other")
            q = make(type(self)._round(s._d / o._d), False, None, 0)
            gb = unbroadcast(-g * q, in_shape(self, 1, g))
        return [ga, gb]


class FmodBackward0(RemainderBackward0):
    __slots__ = ()
    _name = "FmodBackward0"


class FmodBackward1(RemainderBackward1):
    __slots__ = ()
    _name = "FmodBackward1"
    _round = staticmethod(np.trunc)


OPS = [
    Op("floor_divide", floor_divide, inplace=True, operators=("__floordiv__",), out=True),
    Op("remainder", remainder, inplace=True, operators=("__mod__",), out=True),
    Op("fmod", fmod, inplace=True, out=True),
]
