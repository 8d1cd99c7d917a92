"""Tensor methods with no op of their own: truth value (`is_nonzero`), membership,
reversal, device and dtype facts, and `x.where(c, y)`'s argument order; plus the in-place
`tril_`/`triu_` bindings of tensor_shape's ops."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.ops import pointwise as pw
from engine.ops._core import as_tensor
from engine.ops.tensor_shape import tril, triu  # noqa: F401  (bound as tril_/triu_ below)


def is_nonzero(self: Tensor) -> bool:
    n = self._d.size
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(self._d.reshape(()))


def __contains__(self: Tensor, element: Any) -> bool:
    if not isinstance(element, Tensor | int | float | bool):
        raise RuntimeError(
            "Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
            f"{type(element)}."
        )
    return bool(np.any(self._d == as_tensor(element)._d))


def __reversed__(self: Tensor) -> Any:
    from engine.ops.tensor_shape import flip

    if self._d.ndim == 0:
        return self
    return flip(self, [0])


def get_device(self: Tensor) -> int:
    return -1


def is_signed(self: Tensor) -> bool:
    return bool(self.dtype.is_signed)


itemsize = property(lambda self: self._d.itemsize)
nbytes = property(lambda self: self._d.nbytes)


def where(self: Tensor, condition: Any, y: Any) -> Tensor:
    """`x.where(condition, y)`: the Tensor method puts `self` second (torch.where(c, x, y))."""
    out: Tensor = pw.where(condition, self, y)
    return out


TENSOR_METHODS = (
    "is_nonzero", "where", "__contains__", "__reversed__", "get_device", "is_signed", "itemsize",
    "nbytes",
)  # fmt: skip
INPLACE = ("tril", "triu")
TORCH_FUNCTIONS = ("is_nonzero",)
