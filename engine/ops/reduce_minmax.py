"""Selecting reductions: max/min (full and with dim), amax/amin, aminmax, argmax/argmin,
all/any, sort and topk.

PyTorch's gradients here: a full max/min splits the gradient evenly among tied maxima
(`evenly_distribute_backward`), amax/amin do the same per reduced slice, and max/min with
`dim`, sort and topk send it to the selected index only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype, return_types
from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, record_multi
from engine.ops.introsort import topk_indices, unstable_argsort
from engine.ops.reduce import (
    ALL,
    axes_of,
    dims_of,
    shown,
    shown_list,
    unsqueeze_to,
    wrap_dim,
)
from engine.ops.table import Op


def _const(a: np.ndarray[Any, Any], like: Tensor) -> Tensor:
    return make(a.astype(like._d.dtype, copy=False), False, None, 0)


def _check_nonempty(name: str, a: np.ndarray[Any, Any], axes: tuple[int, ...] | None) -> None:
    if a.size:
        return
    if axes is None:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument."
        )
    for ax in axes:
        if a.shape[ax] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {ax} to have non-zero size.")


def select_back(g: Tensor, idx: np.ndarray[Any, Any], axis: int, shape: tuple[int, ...]) -> Tensor:
    """Scatter `g` (keepdim-shaped, like `idx`) into zeros of `shape` at `idx` along `axis`."""
    if not STATE.enabled:
        out = np.zeros(shape, g._d.dtype)
        if out.ndim == 0:
            out[...] = g._d
        else:
            np.put_along_axis(out, idx, g._d, axis)
        return make(out, False, None, 0)
    if not shape:
        return g
    from engine.ops.scatter import scatter

    # PyTorch's value_selecting_reduction_backward: zeros(sizes).scatter(dim, indices, grad)
    zeros = make(np.zeros(shape, g._d.dtype), False, None, 0)
    return scatter(zeros, axis, make(idx, False, None, 0), g)


# -- max / min ---------------------------------------------------------------------------
def _extreme(fn_name: str, self: Tensor, dim: Any, keepdim: bool, axis: Any) -> Any:
    from engine.ops import pointwise

    if axis is not ALL:
        dim = axis
    if isinstance(dim, Tensor):
        return getattr(pointwise, "maximum" if fn_name == "max" else "minimum")(self, dim)
    a = self._d
    is_max = fn_name == "max"
    if _dtype.kind(a.dtype) == "c":  # complex numbers have no order
        from engine.ops.complex import no_order

        raise no_order(f"{fn_name}_all" if dim is ALL else f"{fn_name}()", self)
    if dim is ALL:
        _check_nonempty(fn_name, a, None)
        out = np.asarray((np.maximum if is_max else np.minimum).reduce(a, axis=None))
        node = MaxBackward1 if is_max else MinBackward1
        return record(node, out, (self,), {"self": self}, out_saved="result")
    d = wrap_dim(int(dim), a.ndim)
    _check_nonempty(fn_name, a, (d,) if a.ndim else ())
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        vals = a.copy()
    else:
        idx = np.expand_dims((np.argmax if is_max else np.argmin)(a, axis=d), d)
        vals = np.take_along_axis(a, idx, d)
        if not keepdim:
            idx, vals = idx.squeeze(d), vals.squeeze(d)
    it = make(idx.astype(np.int64, copy=False), False, None, 0)
    saved = {"dim": shown(int(dim)), "indices": it, "keepdim": keepdim, "self_sym_sizes": a.shape}
    v = record(MaxBackward0 if is_max else MinBackward0, vals, (self,), saved)
    rt = return_types.max if is_max else return_types.min
    return rt((v, it))


def max(self: Tensor, dim: Any = ALL, keepdim: bool = False, *, axis: Any = ALL) -> Any:
    """Largest element; with `dim`, (values, indices) along it; with a tensor, `maximum`."""
    if dim is ALL and axis is ALL:
        _dtype.refuse_barely(self._d.dtype, "max_all")
    return _extreme("max", self, dim, keepdim, axis)


def min(self: Tensor, dim: Any = ALL, keepdim: bool = False, *, axis: Any = ALL) -> Any:
    """Smallest element; with `dim`, (values, indices) along it; with a tensor, `minimum`."""
    if dim is ALL and axis is ALL:
        _dtype.refuse_barely(self._d.dtype, "min_all")
    return _extreme("min", self, dim, keepdim, axis)


def _evenly(g: Any, x: Tensor, r: Tensor) -> Tensor:
    """PyTorch's evenly_distribute_backward: ties (or NaNs) share the gradient equally."""
    xd, rd = x._d, r._d
    mask = np.isnan(xd) if np.isnan(rd).any() else xd == rd
    count = int(mask.sum())
    if not STATE.enabled:
        return make(np.where(mask, g._d / count, 0).astype(xd.dtype, copy=False), False, None, 0)
    from engine.ops.masked import masked_fill

    zeros = make(np.zeros(xd.shape, g._d.dtype), False, None, 0)
    return masked_fill(zeros, make(mask, False, None, 0), g / count)


class MaxBackward1(OpNode):
    __slots__ = ()
    _name = "MaxBackward1"

    def apply(self, grads: Grads) -> Grads:
        return [_evenly(grads[0], self.saved("self"), self.saved("result"))]


class MinBackward1(MaxBackward1):
    __slots__ = ()
    _name = "MinBackward1"


def picked_backward(node: OpNode, grads: Grads) -> Grads:
    """Gradient of a reduction that picks one element per slice (max/min/kthvalue/mode/median
    with a dim): it flows back to the picked index only."""
    g = grads[0]
    assert g is not None
    shape = node.saved("self_sym_sizes")
    axes = axes_of(node.saved("dim"), len(shape))
    idx = node.saved("indices")._d
    if not node.saved("keepdim") and shape:
        g = unsqueeze_to(g, shape, axes)
        idx = np.expand_dims(idx, axes[0])
    return [select_back(g, idx, axes[0] if shape else 0, shape)]


class MaxBackward0(OpNode):
    __slots__ = ()
    _name = "MaxBackward0"
    apply = picked_backward


class MinBackward0(MaxBackward0):
    __slots__ = ()
    _name = "MinBackward0"


# -- amax / amin -------------------------------------------------------------------------
def _aext(is_max: bool, self: Tensor, dim: Any, keepdim: bool) -> Tensor:
    a = self._d
    if _dtype.kind(a.dtype) == "c":
        from engine.ops.complex import no_order

        raise no_order("max_values_cpu" if is_max else "min_values_cpu", self)
    axes = dims_of(dim, a.ndim)
    _check_nonempty("amax" if is_max else "amin", a, axes)
    fn: Any = np.maximum.reduce if is_max else np.minimum.reduce
    out = a.copy() if a.ndim == 0 else np.asarray(fn(a, axis=axes, keepdims=keepdim))
    saved = {"dim": shown_list(dim), "keepdim": keepdim}
    saved["self"] = self
    return record(AmaxBackward0 if is_max else AminBackward0, out, (self,), saved, "result")


def amax(self: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """Largest values over `dim` (all dims by default); ties share the gradient."""
    return _aext(True, self, dim, keepdim)


def amin(self: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """Smallest values over `dim` (all dims by default); ties share the gradient."""
    return _aext(False, self, dim, keepdim)


def amax_grad(g: Any, x: Tensor, r: Tensor, axes: tuple[int, ...], keepdim: bool) -> Tensor:
    """Gradient of amax/amin: each slice's gradient split evenly among its extreme values."""
    shape = x._d.shape
    if not keepdim:
        g, r = unsqueeze_to(g, shape, axes), unsqueeze_to(r, shape, axes)
    mask = x._d == r._d
    count = mask.sum(axis=axes, keepdims=True)
    if not STATE.enabled:
        return make((g._d / count * mask).astype(x._d.dtype, copy=False), False, None, 0)
    return g / _const(count, g) * _const(mask, g)  # type: ignore[no-any-return]


class AmaxBackward0(OpNode):
    __slots__ = ()
    _name = "AmaxBackward0"

    def apply(self, grads: Grads) -> Grads:
        x = self.saved("self")
        axes = axes_of(self.saved("dim"), x._d.ndim)
        return [amax_grad(grads[0], x, self.saved("result"), axes, self.saved("keepdim"))]


class AminBackward0(AmaxBackward0):
    __slots__ = ()
    _name = "AminBackward0"


# -- arg / logical reductions (not differentiable) ---------------------------------------
def _arg(is_max: bool, self: Tensor, dim: Any, keepdim: bool) -> Tensor:
    a = self._d
    fn = np.argmax if is_max else np.argmin
    name = "argmax" if is_max else "argmin"
    if _dtype.kind(a.dtype) == "c":
        from engine.ops.complex import no_order

        raise no_order(f"{name}()", self)
    if dim is None:
        _check_nonempty(name, a, None)
        out = np.asarray(fn(a))
        if keepdim:
            out = out.reshape((1,) * a.ndim)
        return make(out.astype(np.int64), False, None, 0)
    d = wrap_dim(int(dim), a.ndim)
    _check_nonempty(name, a, (d,) if a.ndim else ())
    if a.ndim == 0:
        return make(np.zeros((), np.int64), False, None, 0)
    out = fn(a, axis=d, keepdims=keepdim)
    return make(np.asarray(out, np.int64), False, None, 0)


def argmax(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Index of the largest element (flattened when `dim` is None)."""
    _dtype.refuse_barely(self._d.dtype, "argmax_cpu")
    return _arg(True, self, dim, keepdim)


def argmin(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Index of the smallest element (flattened when `dim` is None)."""
    _dtype.refuse_barely(self._d.dtype, "argmin_cpu")
    return _arg(False, self, dim, keepdim)


def _logical(fn: Any, self: Tensor, dim: Any, keepdim: bool) -> Tensor:
    a = self._d
    axes = dims_of(dim, a.ndim)
    out = a.astype(bool) if a.ndim == 0 else np.asarray(fn(a, axis=axes, keepdims=keepdim))
    # uint8 input keeps uint8, as PyTorch
    return make(out.astype(np.uint8 if a.dtype == np.uint8 else np.bool_), False, None, 0)


def all(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """True when every element (over `dim`) is non-zero."""
    return _logical(np.all, self, dim, keepdim)


def any(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """True when some element (over `dim`) is non-zero."""
    return _logical(np.any, self, dim, keepdim)


# -- sort / topk -------------------------------------------------------------------------
def _argsort(a: np.ndarray[Any, Any], d: int, descending: bool) -> np.ndarray[Any, Any]:
    if _dtype.kind(a.dtype) == "b":
        a = a.view(np.uint8)
    if not descending:
        return np.argsort(a, axis=d, kind="stable")
    # stable descending with ties in ascending index order and NaN first, as PyTorch
    n = a.shape[d]
    rev = np.argsort(np.flip(a, d), axis=d, kind="stable")
    return np.flip(n - 1 - rev, d)


def sort(
    self: Tensor, dim: int = -1, descending: bool = False, *, stable: bool | None = None
) -> return_types.sort:
    """Sorted values and their indices along `dim` (ties in PyTorch's order: stable with
    `stable=True`, its std::sort order otherwise)."""
    a = self._d
    d = wrap_dim(int(dim), a.ndim)
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        vals = a.copy()
    else:
        idx = _argsort(a, d, descending)
        if not stable:
            idx = unstable_argsort(a, d, idx, descending)
        vals = np.take_along_axis(a, idx, d)
    it = make(idx.astype(np.int64, copy=False), False, None, 0)
    saved = {"dim": shown(int(dim)), "indices": it, "self_sym_sizes": a.shape}
    # any `stable=` selects PyTorch's sort.stable overload, whose node is SortBackward1
    node = SortBackward0 if stable is None else SortBackward1
    return return_types.sort((record(node, vals, (self,), saved), it))


def argsort(self: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    """Indices that sort `self` along `dim` (not differentiable)."""
    a = self._d
    if a.ndim == 0:
        return make(np.zeros((), np.int64), False, None, 0)
    d = wrap_dim(int(dim), a.ndim)
    idx = _argsort(a, d, descending)
    if not stable:
        idx = unstable_argsort(a, d, idx, descending)
    return make(idx.astype(np.int64, copy=False), False, None, 0)


def topk(
    self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
) -> return_types.topk:
    """The `k` largest (or smallest) values along `dim`, with their indices."""
    a = self._d
    d = wrap_dim(int(dim), a.ndim)
    n = a.shape[d] if a.ndim else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    if a.ndim == 0:
        idx = np.zeros((), np.int64)
        vals = a.copy()
    else:
        idx = topk_indices(a, d, k, _argsort(a, d, largest), largest, sorted)
        vals = np.take_along_axis(a, idx, d)
    it = make(idx.astype(np.int64, copy=False), False, None, 0)
    saved = {"dim": shown(int(dim)), "indices": it, "self_sym_sizes": a.shape}
    return return_types.topk((record(TopkBackward0, vals, (self,), saved), it))


class SortBackward0(OpNode):
    __slots__ = ()
    _name = "SortBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        shape = self.saved("self_sym_sizes")
        d = axes_of(self.saved("dim"), len(shape))[0] if shape else 0
        return [select_back(g, self.saved("indices")._d, d, shape)]


class SortBackward1(SortBackward0):
    __slots__ = ()
    _name = "SortBackward1"


class TopkBackward0(SortBackward0):
    __slots__ = ()
    _name = "TopkBackward0"


# -- aminmax ---------------------------------------------------------------------------
def aminmax(self: Tensor, *, dim: Any = None, keepdim: bool = False) -> return_types.aminmax:
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
    outs = record_multi(AminmaxBackward0, [lo, hi], (self,), saved, out_saved=("min", "max"))
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


OPS = [
    Op("max", max, out=True),
    Op("min", min, out=True),
    Op("amax", amax, out=True),
    Op("amin", amin, out=True),
    Op("argmax", argmax, out=True),
    Op("argmin", argmin, out=True),
    Op("all", all, out=True),
    Op("any", any, out=True),
    Op("sort", sort, out=True),
    Op("argsort", argsort),
    Op("topk", topk, out=True),
    Op("aminmax", aminmax, out=True),
]
