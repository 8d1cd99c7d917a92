"""Bitwise and logical ops (never differentiable): and, or, xor, not, shifts, logical_*."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.ops._core import as_tensor, binary_arrays, broadcast_error
from engine.ops.table import Op


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


OPS = [
    Op("bitwise_and", bitwise_and, operators=("__and__",), out=True, inplace=True),
    Op("bitwise_or", bitwise_or, operators=("__or__",), out=True, inplace=True),
    Op("bitwise_xor", bitwise_xor, operators=("__xor__",), out=True, inplace=True),
    Op("bitwise_not", bitwise_not, operators=("__invert__",), out=True, inplace=True),
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
    Op("logical_not", logical_not, out=True, inplace=True),
    Op("logical_and", logical_and, out=True, inplace=True),
    Op("logical_or", logical_or, out=True, inplace=True),
]
