"""Pointwise selection: clamp, where, maximum, minimum.

The gradient goes to the picked operand: clamp passes it at its bounds, where routes it by
the condition, maximum/minimum split ties in half (as PyTorch).
"""

from __future__ import annotations

from typing import Any, overload

import numpy as np

from engine import _dtype
from engine._arg_parser import ArgParser, checked
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
from engine.ops.broadcasting import broadcast_shape
from engine.ops.inplace import type_name
from engine.ops.table import Op


def _clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """Limit values to [min, max]; the gradient passes where min <= x <= max."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if _dtype.kind(self._d.dtype) == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    if min is not None and max is not None and isinstance(min, Tensor) != isinstance(max, Tensor):
        # a tensor beside a number passed the parser as a Scalar (0-d, no grad): the Number
        # overload, ClampBackward1
        min, max = (b.item() if isinstance(b, Tensor) and b._d.ndim == 0 else b for b in (min, max))
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


# min and max are both tensors or both numbers: a tensor beside a number is a TypeError, unless it
# is 0-d and needs no grad, when it counts as a number
_BOUNDS = [
    "Tensor input, Tensor min=None, Tensor max=None, *, Tensor out=None",
    "Tensor input, Number min=None, Number max=None, *, Tensor out=None",
]
clamp = checked(ArgParser("clamp", _BOUNDS), _clamp)
clip = checked(ArgParser("clip", _BOUNDS), _clamp)


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
    broadcast_shape(c._d.shape, np.shape(a), np.shape(b))  # PyTorch's message, not NumPy's
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
        out: Grads = []
        for i, pick in ((0, c._d), (1, ~c._d)):
            if self.needs(i):
                shape = in_shape(self, i, g)  # type: ignore[arg-type]
                # a scalar 0, as PyTorch's formula: +0 (g * 0 would be -0 or NaN)
                out.append(unbroadcast(where(make(pick, False, None, 0), g, 0.0), shape))
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


OPS = [
    Op("maximum", maximum, inplace=True, out=True),
    Op("minimum", minimum, inplace=True, out=True),
    Op("clamp", clamp, inplace=True, inplace_function=True, out=True),
    Op("clip", clip, inplace=True, inplace_function=True, out=True),
    Op("where", where, method=False, out=True),
]
