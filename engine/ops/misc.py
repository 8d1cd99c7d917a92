"""Commonly used odds and ends: unique, isin, bucketize/searchsorted, bincount, histc,
tril/triu indices, diff, fill_diagonal_, signbit, heaviside, broadcast_shapes.

Most are not differentiable (integer or boolean results); `diff` is composed of slices and a
subtraction, so its graph is PyTorch's (SubBackward0 over two SliceBackward0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops import pointwise as pw
from engine.ops._core import OpNode, as_tensor, bump, check_inplace, record
from engine.ops.reduce import wrap_dim
from engine.ops.tensor_shape import tril, triu  # noqa: F401  (bound as tril_/triu_ below)
from engine.ops.transpose import movedim


def _t(a: Any) -> Tensor:
    return make(np.asarray(a), False, None, 0)


def _i64(a: Any) -> Tensor:
    return _t(np.asarray(a, np.int64))


# -- unique ----------------------------------------------------------------------------------
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


# -- membership and binning --------------------------------------------------------------------
def isin(
    elements: Any, test_elements: Any, *, assume_unique: bool = False, invert: bool = False
) -> Tensor:
    e, t = as_tensor(elements), as_tensor(test_elements)
    return _t(np.isin(e._d, t._d, invert=invert))


def searchsorted(
    sorted_sequence: Tensor, input: Any, *, out_int32: bool = False, right: bool = False,
    side: str | None = None, sorter: Any = None,
) -> Tensor:  # fmt: skip
    """Insertion indices into the innermost dim of `sorted_sequence`."""
    seq, x = sorted_sequence._d, as_tensor(input)._d
    how: Any = side if side is not None else ("right" if right else "left")
    if seq.ndim <= 1:
        idx = np.searchsorted(seq, x, side=how)
    else:
        flat = zip(seq.reshape(-1, seq.shape[-1]), x.reshape(-1, x.shape[-1]), strict=True)
        rows = [np.searchsorted(s, v, side=how) for s, v in flat]
        idx = np.stack(rows).reshape(x.shape)
    return _t(np.asarray(idx, np.int32 if out_int32 else np.int64))


def bucketize(
    input: Any, boundaries: Tensor, *, out_int32: bool = False, right: bool = False
) -> Tensor:
    """Bucket index of each value; `right=False` means boundaries[i-1] < x <= boundaries[i]."""
    x = as_tensor(input)._d
    idx = np.searchsorted(boundaries._d, x, side="right" if right else "left")
    return _t(np.asarray(idx, np.int32 if out_int32 else np.int64))


def bincount(self: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    a = self._d
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if a.size and a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return _i64(np.bincount(a, minlength=minlength))
    w = weights._d
    out = np.bincount(a, weights=w, minlength=minlength)
    return _t(out.astype(w.dtype if w.dtype.kind == "f" else np.float64))


def histc(self: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """Equal-width histogram over [min, max] (the data's range when both are 0)."""
    a = self._d
    lo, hi = float(min), float(max)
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    inside = a[(a >= lo) & (a <= hi)]
    counts, _ = np.histogram(inside, bins=bins, range=(lo, hi))
    return _t(counts.astype(a.dtype))


def _tri_indices(row: int, col: int, offset: int, lower: bool) -> Tensor:
    r, c = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return _i64(np.stack([r, c]))


def tril_indices(
    row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None
) -> Tensor:
    return _tri_indices(row, col, offset, True)


def triu_indices(
    row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None
) -> Tensor:
    return _tri_indices(row, col, offset, False)


def broadcast_shapes(*shapes: Any) -> Any:
    """The shape all `shapes` broadcast to, with PyTorch's error naming the first misfit."""
    from engine._size import Size

    out: list[int] = []
    for i, s in enumerate(shapes):
        shape = (s,) if isinstance(s, int) else tuple(s)
        out = [1] * (len(shape) - len(out)) + out
        for k in range(1, len(shape) + 1):
            n, m = shape[-k], out[-k]
            if n != m and n != 1 and m != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {n} at {-k}! Mismatching "
                    f"argument at index {i} had {shape}; but expected shape should be "
                    f"broadcastable to {out}"
                )
            out[-k] = m if n == 1 else n
    return Size(out)


# -- pointwise predicates ----------------------------------------------------------------------
def signbit(self: Tensor) -> Tensor:
    return _t(np.signbit(self._d))


def heaviside(self: Tensor, values: Any) -> Tensor:
    v = as_tensor(values)
    if v._d.dtype != self._d.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes")
    from engine.ops.remainder import _not_implemented

    out = np.heaviside(self._d, v._d).astype(self._d.dtype)
    # PyTorch defines no derivative: a NotImplemented node with an edge per input needing grad
    return _not_implemented(out, tuple(t for t in (self, v) if t._rg), "heaviside")


def is_nonzero(self: Tensor) -> bool:
    n = self._d.size
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(self._d.reshape(()))


# -- composites --------------------------------------------------------------------------------
def diff(
    self: Tensor, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None
) -> Tensor:
    """n-th forward difference along `dim` (slices and a subtraction, as PyTorch)."""
    from engine.ops.index import narrow
    from engine.ops.pointwise_binary import logical_xor
    from engine.ops.tensor_shape import cat

    x = self
    if prepend is not None or append is not None:
        parts = [p for p in (prepend, self, append) if p is not None]
        x = cat([as_tensor(p) for p in parts], dim)
    for _ in range(n):
        size = x.shape[dim]
        hi, lo = narrow(x, dim, 1, size - 1), narrow(x, dim, 0, size - 1)
        x = logical_xor(hi, lo) if x._d.dtype.kind == "b" else pw.sub(hi, lo)
    return x


def fill_diagonal_(self: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """Write `fill_value` on the main diagonal in place."""
    check_inplace(self)
    a = self._d
    if a.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    if a.ndim == 2:
        np.fill_diagonal(a, fill_value, wrap=wrap)
    else:
        a[(np.arange(a.shape[0]),) * a.ndim] = fill_value
    bump(self)
    return self


moveaxis = movedim


def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """Windows of `size` every `step` along `dimension`, as a new last dim (UnfoldBackward0)."""
    a = self._d
    d = wrap_dim(dimension, a.ndim) if a.ndim else 0
    n = a.shape[d] if a.ndim else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    win = np.lib.stride_tricks.sliding_window_view(a.reshape(a.shape or (1,)), size, axis=d)
    out = np.ascontiguousarray(np.take(win, np.arange(0, n - size + 1, step), axis=d))
    saved = {"dimension": d, "self_sym_sizes": a.shape, "size": size, "step": step}
    return record(UnfoldBackward0, out if a.ndim else out.reshape(size), (self,), saved)


class UnfoldBackward0(OpNode):
    __slots__ = ()
    _name = "UnfoldBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        shape, d = self.saved("self_sym_sizes"), self.saved("dimension")
        size, step = self.saved("size"), self.saved("step")
        gd = g._d.reshape(g._d.shape if shape else (1, size))
        acc = np.zeros(shape or (1,), gd.dtype)
        for i in range(gd.shape[d]):
            win = np.moveaxis(np.take(gd, i, axis=d), -1, d)  # the window back in place
            sl = [slice(None)] * acc.ndim
            sl[d] = slice(i * step, i * step + size)
            acc[tuple(sl)] += win
        return [make(acc.reshape(shape), False, None, 0)]


# -- small Tensor methods -------------------------------------------------------------------------
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


def sum_to_size(self: Tensor, *size: Any) -> Tensor:
    """Sum broadcast dims away so the result has `size` (self itself when it already does)."""
    from engine.ops.reduce import sum as _sum

    shape = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else tuple(size)
    a = self._d.shape
    lead = len(a) - len(shape)
    if lead < 0 or any(s not in (1, a[lead + i]) for i, s in enumerate(shape)):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(a)}}}.")
    dims = [*range(lead), *(lead + i for i, s in enumerate(shape) if s == 1 and a[lead + i] != 1)]
    if not dims:
        return self
    out: Tensor = _sum(self, dims, keepdim=True)
    return out.reshape(shape) if lead else out  # type: ignore[attr-defined, no-any-return]


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
    "unique", "unique_consecutive", "bincount", "histc", "signbit", "heaviside", "is_nonzero",
    "diff", "fill_diagonal_", "moveaxis", "where",
    "unfold", "__contains__", "__reversed__", "sum_to_size", "get_device", "is_signed",
    "itemsize", "nbytes",
)  # fmt: skip
INPLACE = ("tril", "triu")
TORCH_FUNCTIONS = (
    "unique", "unique_consecutive", "isin", "searchsorted", "bucketize", "bincount", "histc",
    "tril_indices", "triu_indices", "broadcast_shapes", "signbit", "heaviside", "is_nonzero",
    "diff", "moveaxis",
)  # fmt: skip


# -- out= ------------------------------------------------------------------------------------
OUT_FUNCTIONS = (
    "add", "sub", "mul", "div", "matmul", "mm", "bmm", "cat", "stack", "exp", "log", "sqrt",
    "abs", "neg", "pow", "clamp", "sum", "mean", "prod", "cumsum", "where", "maximum", "minimum",
)  # fmt: skip


def with_out(fn: Any, name: str) -> Any:
    """`fn` accepting PyTorch's `out=` tensor, written in place (resized with a warning)."""
    import functools
    import warnings

    from engine.autograd.grad_mode import STATE
    from engine.ops.inplace import type_name

    scalars = name in ("add", "sub", "mul", "div")

    @functools.wraps(fn)
    def op(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if scalars and args and not isinstance(args[0], Tensor):
            args = (as_tensor(args[0]), *args[1:])  # torch.add(5, 5) is tensor(10)
        if out is None:
            return fn(*args, **kwargs)
        r = fn(*args, **kwargs)
        if STATE.enabled and r._rg:
            raise RuntimeError(
                f"{name}(): functions with out=... arguments don't support automatic "
                "differentiation, but one of the arguments requires grad."
            )
        if r.dtype.category > out.dtype.category:
            raise RuntimeError(
                f"result type {type_name(r.dtype)} can't be cast to the desired output type "
                f"{type_name(out.dtype)}"
            )
        if out._d.shape == r._d.shape:
            np.copyto(out._d, r._d, casting="unsafe")
        else:
            if out._d.size:
                warnings.warn(_RESIZED.format(list(out._d.shape), list(r._d.shape)), stacklevel=2)
            out._d = r._d.astype(out._d.dtype)
        bump(out)
        return out

    return op


_RESIZED = (
    "An output with one or more elements was resized since it had shape {}, which does not "
    "match the required output shape {}. This behavior is deprecated, and in a future PyTorch "
    "release outputs will not be resized unless they have zero elements. You can explicitly "
    "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0). "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)"
)


def add_out_params(namespace: dict[str, Any]) -> None:
    """Give the common `torch.*` functions their `out=` parameter."""
    for name in OUT_FUNCTIONS:
        if name in namespace:
            namespace[name] = with_out(namespace[name], name)
