"""Distinct values and membership: unique, unique_consecutive, isin. PyTorch records the
values of a float input that requires grad (Unique2Backward0, UniqueDimBackward0,
UniqueConsecutiveBackward0) but defines no derivative: backward raises NotImplementedError."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, as_tensor, record, variant
from engine.ops.reduce import wrap_dim
from engine.ops.table import Op


def _t(a: Any) -> Tensor:
    return make(np.asarray(a), False, None, 0)


def _i64(a: Any) -> Tensor:
    return _t(np.asarray(a, np.int64))


class _NoDerivative(OpNode):
    """A node ATen records for an op whose derivatives.yaml entry is `not_implemented`."""

    __slots__ = ()
    _op = ""

    def apply(self, grads: Grads) -> Grads:
        raise NotImplementedError(f"the derivative for '{self._op}' is not implemented.")


def _values(self: Tensor, vals: np.ndarray[Any, Any], node: type[OpNode]) -> Tensor:
    """The distinct values: recorded when the input requires grad (a node without a
    derivative), a plain tensor otherwise."""
    return record(node, np.ascontiguousarray(vals.astype(self._d.dtype, copy=False)), (self,))


Unique2Backward0 = variant(_NoDerivative, "Unique2Backward0", _op="_unique2")
UniqueDimBackward0 = variant(_NoDerivative, "UniqueDimBackward0", _op="unique_dim")
UniqueConsecutiveBackward0 = variant(
    _NoDerivative, "UniqueConsecutiveBackward0", _op="unique_consecutive"
)


def unique(
    self: Tensor,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """Distinct values (sorted), optionally with the inverse indices and counts."""
    a = self._d
    axis = None if dim is None else wrap_dim(dim, a.ndim)
    vals, inv, counts = np.unique(a, return_inverse=True, return_counts=True, axis=axis)
    node = Unique2Backward0 if axis is None else UniqueDimBackward0
    out: list[Tensor] = [_values(self, vals, node)]
    if return_inverse:
        out.append(_i64(inv.reshape(a.shape if axis is None else -1)))
    if return_counts:
        out.append(_i64(counts))
    return out[0] if len(out) == 1 else tuple(out)


def unique_consecutive(
    self: Tensor, return_inverse: bool = False, return_counts: bool = False, dim: Any = None
) -> Any:
    """Collapse runs of equal values (of the flattened tensor)."""
    a = self._d.reshape(-1)
    start = np.ones(a.shape, bool)
    start[1:] = a[1:] != a[:-1]
    out: list[Tensor] = [_values(self, a[start], UniqueConsecutiveBackward0)]
    if return_inverse:
        out.append(_i64((np.cumsum(start) - 1).reshape(self._d.shape)))
    if return_counts:
        out.append(_i64(np.diff(np.append(np.flatnonzero(start), a.size))))
    return out[0] if len(out) == 1 else tuple(out)


def isin(
    elements: Any, test_elements: Any, *, assume_unique: bool = False, invert: bool = False
) -> Tensor:
    e, t = as_tensor(elements), as_tensor(test_elements)
    return _t(np.isin(e._d, t._d, invert=invert))


OPS = [
    Op("unique", unique),
    Op("unique_consecutive", unique_consecutive),
    Op("isin", isin, method=False),
]
