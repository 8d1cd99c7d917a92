"""Distinct values and membership: unique, unique_consecutive, isin (not differentiable:
integer and boolean results, as in PyTorch)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.ops._core import as_tensor
from engine.ops.reduce import wrap_dim
from engine.ops.table import Op


def _t(a: Any) -> Tensor:
    return make(np.asarray(a), False, None, 0)


def _i64(a: Any) -> Tensor:
    return _t(np.asarray(a, np.int64))


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
    out: list[Tensor] = [_t(vals.astype(a.dtype, copy=False))]
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
    out: list[Tensor] = [_t(a[start])]
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
