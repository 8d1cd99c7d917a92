"""Less common reductions: median, var_mean/std_mean, aminmax, nanmean, count_nonzero.

`median` returns the lower of the two middle values (no averaging), as PyTorch; its gradient
follows max's: split evenly among ties for the full reduction, to the index with `dim`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import return_types
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads, SavedTensor
from engine.ops._core import OpNode, record, record_multi, zeros_for
from engine.ops.reduce import (
    ALL,
    axes_of,
    dims_of,
    expand_back,
    nansum,
    shown,
    shown_list,
    wrap_dim,
)
from engine.ops.reduce_minmax import (
    _check_nonempty,
    _evenly,
    amax_grad,
    picked_backward,
)
from engine.ops.reduce_stats import _var, _var_args, _var_back


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
        nan = np.isnan(a).any(axis=d, keepdims=True) if a.dtype.kind == "f" else None
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


# -- var_mean / std_mean -----------------------------------------------------------------
def _mean_of(a: np.ndarray[Any, Any], axes: tuple[int, ...], keepdim: bool) -> Any:
    if a.ndim == 0:
        return a.copy()
    return np.asarray(np.mean(a, axis=axes, keepdims=keepdim), a.dtype)


def var_mean(
    self: Tensor,
    dim: Any = None,
    unbiased: Any = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> tuple[Tensor, ...]:
    """(variance, mean) over `dim` in one node."""
    dim, corr = _var_args(dim, unbiased, correction)
    var = _var("var_mean", self, dim, corr, keepdim)
    mean = _mean_of(self._d, dims_of(dim, self._d.ndim), keepdim)
    saved = {"correction": corr, "dim": shown_list(dim), "keepdim": keepdim, "self": self}
    return tuple(record_multi(VarMeanBackward0, [var, mean], (self,), saved))


def std_mean(
    self: Tensor,
    dim: Any = None,
    unbiased: Any = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> tuple[Tensor, ...]:
    """(standard deviation, mean) over `dim` in one node."""
    dim, corr = _var_args(dim, unbiased, correction)
    std = np.sqrt(_var("std_mean", self, dim, corr, keepdim))
    mean = _mean_of(self._d, dims_of(dim, self._d.ndim), keepdim)
    saved = {"correction": corr, "dim": shown_list(dim), "keepdim": keepdim, "self": self}
    outs = record_multi(StdMeanBackward0, [std, mean], (self,), saved)
    node = outs[0]._fn
    if node is not None and node._saved is not None:
        node._saved["result0"] = SavedTensor(outs[0], True)
    return tuple(outs)


def _mean_back(node: OpNode, g: Tensor) -> Tensor:
    x = node.saved("self")
    shape = x._d.shape
    axes = axes_of(node.saved("dim"), len(shape))
    n = 1
    for ax in axes:
        n *= shape[ax]
    gm: Any = g
    return expand_back(gm / n, shape, axes, node.saved("keepdim"))


class VarMeanBackward0(OpNode):
    __slots__ = ()
    _name = "VarMeanBackward0"

    def apply(self, grads: Grads) -> Grads:
        gv, gm = zeros_for(self, grads)
        out: Any = _var_back(self, gv)
        return [out + _mean_back(self, gm)]


class StdMeanBackward0(OpNode):
    __slots__ = ()
    _name = "StdMeanBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.pointwise import where

        gs, gm = zeros_for(self, grads)
        r: Any = self.saved("result0")
        gv = where(make(r._d == 0, False, None, 0), 0.0, gs / (r * 2))  # type: ignore[operator]
        out: Any = _var_back(self, gv)
        return [out + _mean_back(self, gm)]


# -- aminmax, nanmean, count_nonzero -----------------------------------------------------
def aminmax(self: Tensor, *, dim: Any = None, keepdim: bool = False) -> Any:
    """(min, max) over `dim` (all dims by default), from one node."""
    a = self._d
    axes = dims_of(dim, a.ndim)
    _check_nonempty("aminmax", a, axes if dim is not None else None)
    if a.ndim == 0:
        lo, hi = a.copy(), a.copy()
    else:
        lo_fn: Any = np.minimum.reduce
        hi_fn: Any = np.maximum.reduce
        lo = np.asarray(lo_fn(a, axis=axes, keepdims=keepdim))
        hi = np.asarray(hi_fn(a, axis=axes, keepdims=keepdim))
    saved = {"dim": shown(dim) if dim is not None else None, "keepdim": keepdim, "self": self}
    outs = record_multi(AminmaxBackward0, [lo, hi], (self,), saved)
    node = outs[0]._fn
    if node is not None and node._saved is not None:
        node._saved["min"] = SavedTensor(outs[0], True)
        node._saved["max"] = SavedTensor(outs[1], True)
    return return_types.aminmax((outs[0], outs[1]))


class AminmaxBackward0(OpNode):
    __slots__ = ()
    _name = "AminmaxBackward0"

    def apply(self, grads: Grads) -> Grads:
        x = self.saved("self")
        axes = axes_of(self.saved("dim"), x._d.ndim)
        keep = self.saved("keepdim")
        out: Any = None
        for g, key in zip(grads, ("min", "max")):
            if g is not None:
                part = amax_grad(g, x, self.saved(key), axes, keep)
                out = part if out is None else out + part
        return [out]


def nanmean(self: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Mean ignoring NaN: `nansum / count`, as PyTorch composes it."""
    a = self._d
    count = (~np.isnan(a)).sum(axis=dims_of(dim, a.ndim), keepdims=keepdim) if a.ndim else 1
    total: Any = nansum(self, dim, keepdim, dtype=dtype)
    return total / make(np.asarray(count, np.int64), False, None, 0)  # type: ignore[no-any-return]


def count_nonzero(self: Tensor, dim: Any = None) -> Tensor:
    """Number of non-zero elements (over `dim`)."""
    a = self._d
    out = np.count_nonzero(a, axis=dims_of(dim, a.ndim) if a.ndim else None)
    return make(np.asarray(out, np.int64), False, None, 0)


TENSOR_METHODS = ("median", "var_mean", "std_mean", "aminmax", "nanmean", "count_nonzero")
TORCH_FUNCTIONS = TENSOR_METHODS
