"""Shape helpers PyTorch composes from primitives (so the graph shows those primitives):
tile, atleast_*d, broadcast_*, meshgrid, repeat_interleave, take_along_dim, flipud/fliplr,
tensor_split/hsplit/vsplit, dstack/column_stack, nonzero/argwhere, diff (slices and a
subtraction), moveaxis, sum_to_size; plus the diag family, rot90, index_fill and unfold,
which PyTorch records as nodes of their own."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._layout import contiguous_format
from engine._tensor import Tensor, _wrap_dim, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, as_tensor, record
from engine.ops.broadcasting import broadcast_shape
from engine.ops.index import narrow
from engine.ops.reduce import wrap_dim
from engine.ops.shape import _shape_arg, expand, kw_arg, reshape, unsqueeze, view
from engine.ops.table import Op
from engine.ops.tensor_shape import _diag_fn, cat, clone, flip, repeat
from engine.ops.transpose import movedim


def tile(self: Tensor, *dims: Any, **kw: Any) -> Tensor:
    """`repeat` with missing leading repeats taken as 1 (RepeatBackward0)."""
    if kw:
        dims = kw_arg(dims, kw, "dims")
    reps = _shape_arg(dims)
    return repeat(self, (1,) * (self._d.ndim - len(reps)) + reps)


def atleast_1d(self: Tensor) -> Tensor:
    return reshape(self, (1,)) if self._d.ndim == 0 else self


def atleast_2d(self: Tensor) -> Tensor:
    nd = self._d.ndim
    return reshape(self, (1, 1)) if nd == 0 else unsqueeze(self, 0) if nd == 1 else self


def atleast_3d(self: Tensor) -> Tensor:
    nd = self._d.ndim
    if nd == 0:
        return reshape(self, (1, 1, 1))
    if nd == 1:
        return unsqueeze(unsqueeze(self, 0), -1)
    return unsqueeze(self, -1) if nd == 2 else self


def broadcast_to(self: Tensor, size: Any) -> Tensor:
    return expand(self, tuple(size))


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    """Every tensor expanded to the common shape (ExpandBackward0 each)."""
    shape = broadcast_shape(*(t._d.shape for t in tensors))
    return tuple(t if t._d.shape == shape else expand(t, shape) for t in tensors)


def meshgrid(*tensors: Any, indexing: str = "ij") -> tuple[Tensor, ...]:
    """Coordinate grids: each 1-D input viewed along its axis, then expanded."""
    ts = (
        list(tensors[0])
        if len(tensors) == 1 and isinstance(tensors[0], list | tuple)
        else list(tensors)
    )
    n = len(ts)
    swap = indexing == "xy" and n >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(int(t._d.size) for t in ts)
    outs = []
    for i, t in enumerate(ts):
        s = [1] * n
        s[i] = -1
        outs.append(expand(view(t, tuple(s)), shape))
    if swap:
        outs[0], outs[1] = outs[1], outs[0]
    return tuple(outs)


def repeat_interleave(
    self: Tensor, repeats: Any = None, dim: int | None = None, *, output_size: int | None = None
) -> Tensor:
    """Each element repeated: expand + clone + view for an int, index_select for a tensor."""
    if repeats is None:  # torch.repeat_interleave(counts): indices repeated by counts
        return as_tensor(np.repeat(np.arange(self._d.size), self._d))
    src, d = (reshape(self, (-1,)), 0) if dim is None else (self, _wrap_dim(dim, self._d.ndim))
    if isinstance(repeats, Tensor) and repeats._d.ndim:
        from engine.ops.scatter import index_select

        idx = np.repeat(np.arange(src._d.shape[d]), repeats._d)
        return index_select(src, d, make(idx, False, None, 0))
    r = int(repeats)
    shp = src._d.shape
    e = expand(unsqueeze(src, d + 1), (*shp[: d + 1], r, *shp[d + 1 :]))
    return view(clone(e, memory_format=contiguous_format), (*shp[:d], shp[d] * r, *shp[d + 1 :]))


def take_along_dim(self: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """`gather` after broadcasting self and indices except along `dim`."""
    from engine.ops.scatter import gather

    if dim is None:
        return gather(reshape(self, (-1,)), 0, reshape(indices, (-1,)))
    if self._d.ndim != indices._d.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, "
            f"but got {self._d.ndim} dimensions for input, and {indices._d.ndim} dimensions for "
            "indices"
        )
    if indices._d.dtype != np.int64:
        raise RuntimeError(
            "torch.take_along_dim(): dtype of indices should be Long but got "
            + _dtype.type_name(indices.dtype)
        )
    d = _wrap_dim(dim, self._d.ndim)
    s, i = list(self._d.shape), list(indices._d.shape)
    s[d] = i[d] = 1
    common = list(broadcast_shape(tuple(s), tuple(i)))
    self_shape = (*common[:d], self._d.shape[d], *common[d + 1 :])
    idx_shape = (*common[:d], indices._d.shape[d], *common[d + 1 :])
    idx = indices if indices._d.shape == idx_shape else expand(indices, idx_shape)
    return gather(expand(self, self_shape), d, idx)


def flipud(self: Tensor) -> Tensor:
    return flip(self, 0)


def fliplr(self: Tensor) -> Tensor:
    return flip(self, 1)


def tensor_split(self: Tensor, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Independent slices (SliceBackward0 each), like numpy.array_split."""
    d = _wrap_dim(dim, self._d.ndim)
    n = self._d.shape[d]
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        if k <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {k}")
        sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
        bounds, off = [], 0
        for s in sizes:
            bounds.append((off, off + s))
            off += s
    else:
        cuts = [0, *(min(int(c), n) for c in indices_or_sections), n]
        bounds = [(cuts[i], max(cuts[i], cuts[i + 1])) for i in range(len(cuts) - 1)]
    return tuple(narrow(self, d, a, b - a) for a, b in bounds)


def _split_along(
    name: str, self: Tensor, sections: Any, dim: int, min_dims: int
) -> tuple[Tensor, ...]:
    """hsplit/vsplit/dsplit: tensor_split, except that a number of sections must divide."""
    n = self._d.ndim
    if n < min_dims:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {min_dims} dimension, but got a tensor "
            f"with {n} dimensions!"
        )
    if isinstance(sections, int) and sections >= 0:
        size = self._d.shape[dim]
        if sections == 0 or size % sections:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                f"dimension {size} is not divisible by the split_size {sections}!"
            )
    return tensor_split(self, sections, dim)


def hsplit(self: Tensor, sections: Any) -> tuple[Tensor, ...]:
    """tensor_split along dim 1 (dim 0 of a 1-D tensor)."""
    return _split_along("hsplit", self, sections, 1 if self._d.ndim > 1 else 0, 1)


def vsplit(self: Tensor, sections: Any) -> tuple[Tensor, ...]:
    return _split_along("vsplit", self, sections, 0, 2)


def dsplit(self: Tensor, sections: Any) -> tuple[Tensor, ...]:
    return _split_along("dsplit", self, sections, 2, 3)


def dstack(tensors: Any) -> Tensor:
    return cat([atleast_3d(t) for t in tensors], 2)


def column_stack(tensors: Any) -> Tensor:
    ts = [reshape(t, (t._d.size, 1)) if t._d.ndim <= 1 else t for t in tensors]
    return cat(ts, 1)


def nonzero(self: Tensor, *, as_tuple: bool = False) -> Any:
    """Indices of the non-zero entries (not differentiable)."""
    nz = np.nonzero(self._d) if self._d.ndim else np.nonzero(self._d.reshape(1))
    if as_tuple:
        return tuple(make(np.asarray(i, np.int64), False, None, 0) for i in nz)
    return make(np.stack(nz, axis=1).astype(np.int64), False, None, 0)


def argwhere(self: Tensor) -> Tensor:
    out: Tensor = nonzero(self)
    return out


# -- ops with nodes of their own -----------------------------------------------------------
def diag_embed(self: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Last dim placed on a diagonal of a new square pair of dims (DiagEmbedBackward0)."""
    n = self._d.shape[-1] + abs(offset)
    nd = self._d.ndim + 1
    d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)
    batch = list(self._d.shape[:-1])
    shape = batch[:]
    for d in sorted((d1, d2)):
        shape.insert(d, n)
    out = np.zeros(shape, self._d.dtype)
    _diag_fn(offset, d1, d2)(out)[...] = self._d
    saved = {"offset": offset, "dim1": d1, "dim2": d2}
    return record(DiagEmbedBackward0, out, (self,), saved)


class DiagEmbedBackward0(OpNode):
    __slots__ = ()
    _name = "DiagEmbedBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.tensor_shape import diagonal

        g = grads[0]
        assert g is not None
        s = self.saved
        return [diagonal(g, s("offset"), s("dim1"), s("dim2"))]


def diag(self: Tensor, diagonal: int = 0) -> Tensor:
    """1-D: a square matrix with it on a diagonal; 2-D: a copy of a diagonal."""
    if self._d.ndim == 1:
        return diag_embed(self, diagonal, 0, 1)
    if self._d.ndim != 2:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{self._d.ndim}D")
    data = np.diagonal(self._d, diagonal).copy()
    saved = {"offset": diagonal, "dim1": 0, "dim2": 1, "self_sym_sizes": self._d.shape}
    return record(DiagonalBackward0Copy, data, (self,), saved, shapes=(self._d.shape,))


class DiagonalBackward0Copy(OpNode):
    __slots__ = ()
    _name = "DiagonalBackward0_copy"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.views import embed

        g = grads[0]
        assert g is not None and self._shapes is not None
        return [embed(g, self._shapes[0], _diag_fn(self.saved("offset"), 0, 1))]


def rot90(self: Tensor, k: int = 1, dims: Any = (0, 1)) -> Tensor:
    """Rotate by 90 degrees `k` times in the plane `dims` (Rot90Backward0)."""
    ds = tuple(_wrap_dim(d, self._d.ndim) for d in dims)
    data = np.rot90(self._d, k, (ds[0], ds[1])).copy()
    return record(Rot90Backward0, data, (self,), {"k": k, "dims": ds})


class Rot90Backward0(OpNode):
    __slots__ = ()
    _name = "Rot90Backward0"

    def apply(self, grads: Grads) -> Grads:
        return [rot90(grads[0], -self.saved("k"), self.saved("dims"))]  # type: ignore[arg-type]


def index_fill(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    """`value` at `index` along `dim` (IndexFillBackward0)."""
    d = _wrap_dim(dim, self._d.ndim)
    out = self._d.copy()
    key: Any = (slice(None),) * d + (index._d.reshape(-1),)
    out[key] = value._d if isinstance(value, Tensor) else value
    return record(IndexFillBackward0, out, (self,), {"dim": d, "index": index})


class IndexFillBackward0(OpNode):
    __slots__ = ()
    _name = "IndexFillBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [index_fill(grads[0], self.saved("dim"), self.saved("index"), 0.0)]  # type: ignore[arg-type]


def diff(
    self: Tensor, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None
) -> Tensor:
    """n-th forward difference along `dim` (slices and a subtraction, as PyTorch)."""
    from engine.ops.index import narrow
    from engine.ops.pointwise import sub
    from engine.ops.pointwise_binary import logical_xor
    from engine.ops.tensor_shape import cat

    x = self
    if prepend is not None or append is not None:
        parts = [p for p in (prepend, self, append) if p is not None]
        x = cat([as_tensor(p) for p in parts], dim)
    for _ in range(n):
        size = x.shape[dim]
        hi, lo = narrow(x, dim, 1, size - 1), narrow(x, dim, 0, size - 1)
        x = logical_xor(hi, lo) if _dtype.kind(x._d.dtype) == "b" else sub(hi, lo)
    return x


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
    return out.reshape(shape) if lead else out


OPS = [
    Op("tile", tile),
    Op("broadcast_to", broadcast_to),
    Op("repeat_interleave", repeat_interleave),
    Op("take_along_dim", take_along_dim, out=True),
    Op("flipud", flipud),
    Op("fliplr", fliplr),
    Op("tensor_split", tensor_split),
    Op("hsplit", hsplit),
    Op("vsplit", vsplit),
    Op("dsplit", dsplit),
    Op("nonzero", nonzero, out=True),
    Op("argwhere", argwhere),
    Op("diag_embed", diag_embed),
    Op("diag", diag, out=True),
    Op("rot90", rot90),
    Op("index_fill", index_fill, inplace=True),
    Op("diff", diff, out=True),
    Op("moveaxis", moveaxis),
    Op("unfold", unfold, function=False),
    Op("sum_to_size", sum_to_size, function=False),
    Op("atleast_1d", atleast_1d, method=False),
    Op("atleast_2d", atleast_2d, method=False),
    Op("atleast_3d", atleast_3d, method=False),
    Op("broadcast_tensors", broadcast_tensors, method=False),
    Op("meshgrid", meshgrid, method=False),
    Op("dstack", dstack, method=False, out=True),
    Op("column_stack", column_stack, method=False, out=True),
]
