"""Order statistics, as PyTorch's Sorting.cpp: median, nanmedian, kthvalue, mode, msort.

`median` returns the lower of the two middle values (no averaging), as PyTorch; its gradient
follows max's: split evenly among ties for the full reduction, to the index with `dim`.
`kthvalue`/`mode` route the gradient to the picked index as `max(dim)` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype, return_types
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.introsort import LIMIT, mode_index, quick_select_index
from engine.ops.reduce import ALL, shown, wrap_dim
from engine.ops.reduce_minmax import _check_nonempty, _evenly, picked_backward
from engine.ops.table import Op


# -- median ------------------------------------------------------------------------------
def median(self: Tensor, dim: Any = ALL, keepdim: bool = False) -> Any:
    """The lower median of all elements, or (values, indices) along `dim`."""
    a = self._d
    if dim is ALL:
        if a.size == 0:
            return make(np.asarray(np.nan, a.dtype), False, None, 0)
        flat = np.sort(a.reshape(-1), kind="stable")
        out = np.asarray(flat[(flat.size - 1) // 2])
        if np.isnan(flat).any():
            out = np.asarray(np.nan, a.dtype)
        return record(MedianBackward0, out, (self,), {"self": self}, out_saved="result")
    d = wrap_dim(int(dim), a.ndim)
    _check_nonempty("median", a, (d,) if a.ndim else ())
    if a.ndim == 0:
        idx, vals = np.zeros((), np.int64), a.copy()
    else:
        order = np.argsort(a, axis=d, kind="stable")  # NaN sorts last, so it is picked last
        k = (a.shape[d] - 1) // 2
        idx = np.take(order, [k], axis=d)
        nan = np.isnan(a).any(axis=d, keepdims=True) if _dtype.kind(a.dtype) == "f" else None
        if nan is not None and nan.any():
            first_nan = np.expand_dims(np.argmax(np.isnan(a), axis=d), d)
            idx = np.where(nan, first_nan, idx)
        vals = np.take_along_axis(a, idx, d)
        if not keepdim:
            idx, vals = idx.squeeze(d), vals.squeeze(d)
    it = make(idx.astype(np.int64, copy=False), False, None, 0)
    saved = {"dim": shown(int(dim)), "indices": it, "keepdim": keepdim, "self_sym_sizes": a.shape}
    return return_types.median((record(MedianBackward1, vals, (self,), saved), it))


class MedianBackward0(OpNode):
    __slots__ = ()
    _name = "MedianBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [_evenly(grads[0], self.saved("self"), self.saved("result"))]


class MedianBackward1(OpNode):
    __slots__ = ()
    _name = "MedianBackward1"

    apply = picked_backward


# -- nanmedian ------------------------------------------------------------------------------
def nanmedian(self: Tensor, dim: Any = ALL, keepdim: bool = False) -> Any:
    """The lower median of the non-NaN elements (NaN only where every element is NaN)."""
    a = self._d
    if dim is ALL:
        flat = a.reshape(-1)
        valid = (
            np.sort(flat[~np.isnan(flat)], kind="stable")
            if _dtype.kind(a.dtype) == "f"
            else (np.sort(flat, kind="stable"))
        )
        out = np.asarray(valid[(valid.size - 1) // 2] if valid.size else np.nan, a.dtype)
        return record(NanmedianBackward0, out, (self,), {"self": self}, out_saved="result")
    d = wrap_dim(int(dim), a.ndim)
    _check_nonempty("median", a, (d,) if a.ndim else ())
    if a.ndim == 0:
        idx, vals = np.zeros((), np.int64), a.copy()
    else:
        order = np.argsort(a, axis=d, kind="stable")  # NaN sorts last
        count = (
            (~np.isnan(a)).sum(axis=d, keepdims=True)
            if _dtype.kind(a.dtype) == "f"
            else np.full((*a.shape[:d], 1, *a.shape[d + 1 :]), a.shape[d])
        )
        idx = np.take_along_axis(order, np.maximum((count - 1) // 2, 0), d)
        vals = np.take_along_axis(a, idx, d)
        if not keepdim:
            idx, vals = idx.squeeze(d), vals.squeeze(d)
    it = make(idx.astype(np.int64, copy=False), False, None, 0)
    saved = {"dim": shown(int(dim)), "indices": it, "keepdim": keepdim, "self_sym_sizes": a.shape}
    return return_types.nanmedian((record(NanmedianBackward1, vals, (self,), saved), it))


class NanmedianBackward0(MedianBackward0):
    __slots__ = ()
    _name = "NanmedianBackward0"


class NanmedianBackward1(MedianBackward1):
    __slots__ = ()
    _name = "NanmedianBackward1"


# -- kthvalue / mode -------------------------------------------------------------------------
class KthvalueBackward0(OpNode):
    __slots__ = ()
    _name = "KthvalueBackward0"

    apply = picked_backward


class ModeBackward0(KthvalueBackward0):
    __slots__ = ()
    _name = "ModeBackward0"


def _pick(node: type[OpNode], rt: Any, self: Tensor, idx: Any, dim: int, d: int, keep: bool) -> Any:
    a = self._d
    vals = np.take_along_axis(a, idx, d) if a.ndim else a.copy()
    if not keep and a.ndim:
        idx, vals = idx.squeeze(d), vals.squeeze(d)
    it = make(np.asarray(idx, np.int64), False, None, 0)
    saved = {"dim": shown(dim), "indices": it, "keepdim": keep, "self_sym_sizes": a.shape}
    return rt((record(node, vals, (self,), saved), it))


def kthvalue(self: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    """The k-th smallest value along `dim` and its index."""
    a = self._d
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    n = a.shape[d] if a.ndim else 1
    if not 1 <= k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
    else:
        idx = np.take(np.argsort(a, axis=d, kind="stable"), [k - 1], axis=d)
        if a.size <= LIMIT:
            # a tied k-th value: the index is the one ATen's quickselect leaves at k - 1
            kth = np.take_along_axis(a, idx, d)
            tied = ((a == kth) | (np.isnan(a) & np.isnan(kth))).sum(axis=d, keepdims=True) > 1
            rows, out, ties = (np.moveaxis(t, d, -1) for t in (a, idx, tied))
            for pos in np.ndindex(rows.shape[:-1]):
                if ties[pos][0]:
                    out[pos][0] = quick_select_index(rows[pos].tolist(), k - 1)
    return _pick(KthvalueBackward0, return_types.kthvalue, self, idx, dim, d, keepdim)


def _mode_1d(row: np.ndarray[Any, Any]) -> int:
    vals, counts = np.unique(row, return_counts=True)
    if counts.max() == 1 or row.size > LIMIT:
        return int(np.flatnonzero(row == vals[np.argmax(counts)])[-1])
    # which of the tied elements is reported is std::sort's arrangement of them
    return mode_index(row.tolist())


def mode(self: Tensor, dim: int = -1, keepdim: bool = False) -> Any:
    """The most frequent value along `dim` (the smallest on ties) and its last index."""
    a = self._d
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
    else:
        idx = np.expand_dims(np.apply_along_axis(_mode_1d, d, a), d)
    return _pick(ModeBackward0, return_types.mode, self, idx, dim, d, keepdim)


def msort(self: Tensor) -> Tensor:
    """Sorted along dim 0 (values only)."""
    from engine.ops.reduce_minmax import sort

    out: Tensor = sort(self, 0).values
    return out


OPS = [
    Op("median", median, out=True),
    Op("nanmedian", nanmedian, out=True),
    Op("kthvalue", kthvalue, out=True),
    Op("mode", mode, out=True),
    Op("msort", msort, out=True),
]
