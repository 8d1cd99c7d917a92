"""Sum-like reductions: sum, nansum, mean, nanmean, prod, count_nonzero, and the dim helpers
other reductions share.

`dim` follows PyTorch: an int, a tuple/list (empty or None means every dim) or absent. An absent
`dim` makes the full-reduction node (`SumBackward0`); any explicit `dim`, even None, makes the
`dim` node (`SumBackward1`), as PyTorch's overloads do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops import autocast as _autocast
from engine.ops import cascade
from engine.ops._core import OpNode, acc_dtype, record
from engine.ops.inplace import type_name
from engine.ops.table import Op

ALL: Any = object()  # "no dim given": the full-reduction overload
_U64 = 1 << 64


# -- dims --------------------------------------------------------------------------------
def wrap_dim(d: int, ndim: int) -> int:
    """A non-negative dim, with PyTorch's IndexError when out of range (0-d tensors take 0/-1)."""
    n = ndim if ndim > 0 else 1
    if not -n <= d < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})"
        )
    return d + n if d < 0 else d


def dims_of(dim: Any, ndim: int) -> tuple[int, ...]:
    """Sorted non-negative axes of a `dim` argument; None and () mean every axis."""
    if dim is None or dim is ALL:
        return tuple(range(ndim))
    if isinstance(dim, int | np.integer):
        return (wrap_dim(int(dim), ndim),) if ndim else ()
    seen: list[int] = []
    for d in dim:
        w = wrap_dim(int(d), ndim)
        if w in seen:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        seen.append(w)
    if not seen:
        return tuple(range(ndim))
    return tuple(sorted(seen)) if ndim else ()


def shown(dim: Any) -> Any:
    """A dim argument as PyTorch exposes it in `_saved_dim` (negative ints wrap as uint64)."""
    if dim is None or dim is ALL:
        return None
    if isinstance(dim, int | np.integer):
        return int(dim) + _U64 if dim < 0 else int(dim)
    return tuple(int(d) + _U64 if d < 0 else int(d) for d in dim)


def shown_list(dim: Any) -> Any:
    """`shown` for IntArrayRef dims: PyTorch saves a tuple even when given one int."""
    return shown((dim,) if isinstance(dim, int | np.integer) else dim)


def axes_of(saved_dim: Any, ndim: int) -> tuple[int, ...]:
    """Axes back from a saved (shown) dim."""
    if saved_dim is None:
        return tuple(range(ndim))
    if isinstance(saved_dim, int):
        saved_dim = (saved_dim,)
    axes = tuple(sorted((d - _U64 if d >= 1 << 63 else d) % max(ndim, 1) for d in saved_dim))
    return axes if axes and ndim else tuple(range(ndim))


def kept_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """`shape` with the reduced `axes` set to 1 (keepdim's output shape)."""
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def unsqueeze_to(g: Tensor, shape: tuple[int, ...], axes: tuple[int, ...]) -> Tensor:
    """A reduced gradient (keepdim=False) with its reduced axes put back as size-1 dims."""
    if len(g._d.shape) == len(shape):
        return g
    if not STATE.enabled:
        return make(g._d.reshape(kept_shape(shape, axes)), False, None, 0)
    from engine.ops.shape import unsqueeze

    for a in axes:
        g = unsqueeze(g, a)
    return g


def expand_back(g: Tensor, shape: tuple[int, ...], axes: tuple[int, ...], keepdim: bool) -> Tensor:
    """Broadcast a reduced gradient back to the input's shape (PyTorch's `sum_backward`)."""
    if not keepdim and g._d.ndim:  # a 0-d gradient expands as it is (PyTorch's sum_backward)
        g = unsqueeze_to(g, shape, axes)
    if not STATE.enabled:
        return make(np.broadcast_to(g._d, shape), False, None, 0)
    from engine.ops.shape import expand

    return expand(g, shape)


def _acc_dtype(a: np.ndarray[Any, Any], dtype: Any) -> np.ndarray[Any, Any]:
    # sum/prod of ints and bools is int64 in PyTorch, whatever the input width
    if dtype is not None:
        return a.astype(dtype.np, copy=False)
    if _dtype.kind(a.dtype) in "biu":
        return a.astype(np.int64)
    return a


def _reduce(a: np.ndarray[Any, Any], fn: Any, axes: tuple[int, ...], keepdim: bool) -> Any:
    if a.ndim == 0:
        return a.copy()
    # ufunc.reduce directly: np.sum / np.max add a Python wrapper costing ~1 us per call
    return np.asarray(fn(a, axis=axes, keepdims=keepdim))


def _add(a: np.ndarray[Any, Any], axes: tuple[int, ...], keepdim: bool) -> Any:
    """A sum over `axes`, in ATen's order where `cascade` covers the layout (the last bits of
    a float sum are PyTorch's), else NumPy's."""
    out = cascade.add_reduce(a, axes, keepdim) if a.ndim else None
    return out if out is not None else _reduce(a, np.add.reduce, axes, keepdim)


# -- sum ---------------------------------------------------------------------------------
def sum(
    self: Tensor, dim: Any = ALL, keepdim: bool = False, *, dtype: Any = None, axis: Any = ALL
) -> Tensor:
    """Sum of all elements, or over `dim`."""
    if axis is not ALL:
        dim = axis
    a = _acc_dtype(self._d, dtype)
    acc = acc_dtype(a.dtype)
    if acc is not None:  # bfloat16 sums in float32, rounded once (PyTorch's accumulate type)
        out = _reduce(a.astype(acc), np.add.reduce, dims_of(dim, a.ndim), keepdim).astype(a.dtype)
    else:
        out = _add(a, dims_of(dim, a.ndim), keepdim)
    if dim is ALL and not keepdim:
        return record(SumBackward0, out, (self,), {"self_sym_sizes": a.shape})
    saved = {"dim": shown_list(dim), "keepdim": keepdim, "self_sym_sizes": a.shape}
    return record(SumBackward1, out, (self,), saved)


class SumBackward0(OpNode):
    __slots__ = ()
    _name = "SumBackward0"

    def apply(self, grads: Grads) -> Grads:
        shape = self.saved("self_sym_sizes")
        return [expand_back(grads[0], shape, tuple(range(len(shape))), False)]  # type: ignore[arg-type]


class SumBackward1(OpNode):
    __slots__ = ()
    _name = "SumBackward1"

    def apply(self, grads: Grads) -> Grads:
        shape = self.saved("self_sym_sizes")
        axes = axes_of(self.saved("dim"), len(shape))
        return [expand_back(grads[0], shape, axes, self.saved("keepdim"))]  # type: ignore[arg-type]


def nansum(self: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Sum treating NaN as zero."""
    a = _acc_dtype(self._d, dtype)
    axes = dims_of(dim, a.ndim)
    out = _reduce(a, np.nansum, axes, keepdim)
    saved = {"dim": shown_list(dim if dim is not None else ()), "keepdim": keepdim, "self": self}
    return record(NansumBackward0, out, (self,), saved)


class NansumBackward0(OpNode):
    __slots__ = ()
    _name = "NansumBackward0"

    def apply(self, grads: Grads) -> Grads:
        x = self.saved("self")
        shape = x._d.shape
        g0: Any = grads[0]
        g = expand_back(g0, shape, axes_of(self.saved("dim"), len(shape)), self.saved("keepdim"))
        keep = make((~np.isnan(x._d)).astype(g._d.dtype), False, None, 0)
        return [g * keep]


# -- mean --------------------------------------------------------------------------------
def mean(
    self: Tensor, dim: Any = ALL, keepdim: bool = False, *, dtype: Any = None, axis: Any = ALL
) -> Tensor:
    """Mean of all elements, or over `dim`."""
    if axis is not ALL:
        dim = axis
    a = self._d
    if dtype is not None:
        a = a.astype(dtype.np, copy=False)
    if _dtype.kind(a.dtype) != "f" and _dtype.kind(a.dtype) != "c":
        which = "Input" if dtype is None else "Optional"
        raise RuntimeError(
            f"mean(): could not infer output dtype. {which} dtype must be either a floating point "
            f"or complex dtype. Got: {type_name(_dtype.from_numpy(a.dtype))}"
        )
    saved: dict[str, Any] = {"self_sym_numel": a.size, "self_sym_sizes": a.shape}
    acc = a if acc_dtype(a.dtype) is None else a.astype(np.float32)  # bfloat16: in float32
    if dim is ALL and not keepdim:  # PyTorch's mean: the sum, then divided
        out = np.asarray(_add(acc, dims_of(None, a.ndim), False) / a.size).astype(a.dtype)
        return record(MeanBackward0, out, (self,), saved)
    axes = dims_of(dim, a.ndim)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    out = np.asarray(_add(acc, axes, keepdim) / n).astype(a.dtype)
    saved["dim"] = shown_list(dim)
    saved["keepdim"] = keepdim
    return record(MeanBackward1, out, (self,), saved)


def _div_n(g: Tensor, n: int) -> Tensor:
    if not STATE.enabled:
        return make(g._d / n, False, None, 0)
    from engine.ops.nn_loss import div_scalar

    return div_scalar(g, n)  # a C++ scalar divide in PyTorch: DivBackward1


class MeanBackward0(OpNode):
    __slots__ = ()
    _name = "MeanBackward0"

    def apply(self, grads: Grads) -> Grads:
        shape = self.saved("self_sym_sizes")
        n = self.saved("self_sym_numel")
        g: Any = expand_back(grads[0], shape, tuple(range(len(shape))), False)  # type: ignore[arg-type]
        return [_div_n(g, n)]


class MeanBackward1(OpNode):
    __slots__ = ()
    _name = "MeanBackward1"

    def apply(self, grads: Grads) -> Grads:
        shape = self.saved("self_sym_sizes")
        axes = axes_of(self.saved("dim"), len(shape))
        n = 1
        for a in axes:
            n *= shape[a]
        g: Any = expand_back(grads[0], shape, axes, self.saved("keepdim"))  # type: ignore[arg-type]
        return [_div_n(g, n)]


# -- prod --------------------------------------------------------------------------------
def prod(self: Tensor, dim: Any = ALL, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Product of all elements, or along one `dim`."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        (self,) = _autocast.fp32(self)
    a = _acc_dtype(self._d, dtype)
    if dim is ALL:
        out = np.asarray(a.prod())
        return record(ProdBackward0, out, (self,), {"self": self}, out_saved="result")
    d = wrap_dim(int(dim), a.ndim)
    out = _reduce(a, np.multiply.reduce, (d,), keepdim)
    saved = {"dim": shown(int(dim)), "keepdim": keepdim, "self": self}
    return record(ProdBackward1, out, (self,), saved, out_saved="result")


def _prod_others(a: np.ndarray[Any, Any], axis: int) -> np.ndarray[Any, Any]:
    """Product of the other elements along `axis`, exact with zeros (no division)."""
    m = np.moveaxis(a, axis, -1)
    ones = np.ones((*m.shape[:-1], 1), a.dtype)
    left = np.concatenate([ones, np.cumprod(m, -1)[..., :-1]], -1)
    right = np.flip(np.cumprod(np.flip(m, -1), -1), -1)
    right = np.concatenate([right[..., 1:], ones], -1)
    return np.moveaxis(left * right, -1, axis)


def _prod_grad(g: Tensor, x: Tensor, r: Tensor, axis: int | None) -> Tensor:
    xd = x._d
    if not (xd == 0).any():
        return g * (r / x)
    # With zeros, result / input is 0/0: use the product of the other elements instead.
    if not STATE.enabled:
        if axis is None:
            others = _prod_others(xd.reshape(-1), 0).reshape(xd.shape)
        else:
            others = _prod_others(xd, axis)
        return make(g._d * others, False, None, 0)
    return g * _others_graph(x, axis)


def _others_graph(x: Tensor, axis: int | None) -> Tensor:
    """Product of the other elements with engine ops (create_graph): row k of an (n, n)
    stack is `x` with element k replaced by 1, so second derivatives stay exact."""
    from engine.ops.pointwise import where
    from engine.ops.shape import reshape, unsqueeze

    shape = x._d.shape
    if axis is None:
        return reshape(_others_graph(reshape(x, (-1,)), 0), shape)
    n = shape[axis]
    eye = np.eye(n, dtype=bool).reshape((n, n) + (1,) * (len(shape) - axis - 1))
    stack = where(make(eye, False, None, 0), 1.0, unsqueeze(x, axis))
    return prod(stack, axis + 1)


class ProdBackward0(OpNode):
    __slots__ = ()
    _name = "ProdBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")
        if x._d.ndim == 0:
            return [g]
        return [_prod_grad(g, x, self.saved("result"), None)]


class ProdBackward1(OpNode):
    __slots__ = ()
    _name = "ProdBackward1"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")
        if x._d.ndim == 0:
            return [g]
        shape = x._d.shape
        axes = axes_of(self.saved("dim"), len(shape))
        r = self.saved("result")
        if not self.saved("keepdim"):
            g, r = unsqueeze_to(g, shape, axes), unsqueeze_to(r, shape, axes)
        return [_prod_grad(g, x, r, axes[0])]


# -- nanmean, count_nonzero -------------------------------------------------------------
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


OPS = [
    Op("sum", sum, out=True),
    Op("nansum", nansum, out=True),
    Op("mean", mean, out=True),
    Op("prod", prod, out=True),
    Op("nanmean", nanmean, out=True),
    Op("count_nonzero", count_nonzero),
]
