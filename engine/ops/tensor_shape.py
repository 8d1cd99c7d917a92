"""Copies and joins: clone, contiguous, repeat, cat, stack, split, chunk, unbind, flip, roll,
tril/triu and diagonal."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype, _layout
from engine._layout import preserve_format as PRESERVE
from engine._tensor import Tensor, _wrap_dim, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, record_multi, zeros_for
from engine.ops.shape import _shape_arg, as_view, kw_arg, reshape, unsqueeze
from engine.ops.table import Op


def clone(self: Tensor, *, memory_format: Any = None) -> Tensor:
    """A copy with its own storage (CloneBackward0), in `self`'s order of strides unless
    `memory_format` says otherwise."""
    return record(CloneBackward0, _layout.laid_out(self._d, memory_format or PRESERVE), (self,))


class CloneBackward0(OpNode):
    __slots__ = ()
    _name = "CloneBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0]]


def contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
    """`self` when already contiguous (in `memory_format`), else a clone that is."""
    if memory_format is not None:
        _layout.check_rank(memory_format, self._d.ndim)
    if _layout.is_in(self._d, memory_format):
        return self
    return record(CloneBackward0, _layout.laid_out(self._d, memory_format), (self,))


def repeat(self: Tensor, *sizes: Any, **kw: Any) -> Tensor:
    """Tile the tensor `sizes` times along each dim (RepeatBackward0)."""
    if kw:
        sizes = kw_arg(sizes, kw, "repeats")
    reps = _shape_arg(sizes)
    if len(reps) < self._d.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions "
            "of tensor"
        )
    lead = len(reps) - self._d.ndim
    src = self._d.reshape((1,) * lead + self._d.shape)
    data = np.tile(src, reps) if src.ndim else src.copy()
    saved = {"repeats": reps, "self_sym_sizes": self._d.shape}
    return record(RepeatBackward0, data, (self,), saved, shapes=(self._d.shape,))


class RepeatBackward0(OpNode):
    __slots__ = ()
    _name = "RepeatBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.reduce import sum as _sum

        g = grads[0]
        assert g is not None and self._shapes is not None
        reps = self.saved("repeats")
        shape = self._shapes[0]
        padded = (1,) * (len(reps) - len(shape)) + shape
        split: list[int] = []
        for r, s in zip(reps, padded):
            split += [r, s]
        if not split:
            return [g]
        summed = _sum(reshape(g, tuple(split)), tuple(range(0, len(split), 2)))
        return [reshape(summed, shape)]


def _seq(tensors: Any, name: str) -> list[Tensor]:
    if isinstance(tensors, Tensor):
        raise TypeError(
            f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"
        )
    out = list(tensors)
    if not out:
        if name == "cat":  # checked in Python by torch.cat, the rest in ATen
            raise ValueError("torch.cat(): expected a non-empty list of Tensors")
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return out


def cat(tensors: Any, dim: int = 0, *, axis: int | None = None) -> Tensor:
    """Join tensors along an existing dim (CatBackward0)."""
    ts = _seq(tensors, "cat")
    dim = dim if axis is None else axis
    # PyTorch still skips legacy empty 1-D tensors of shape [0]
    parts = [t for t in ts if not (t._d.ndim == 1 and t._d.shape[0] == 0)] or ts[:1]
    nd = parts[0]._d.ndim
    if nd == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = _wrap_dim(dim, nd)
    ref = parts[0]._d.shape
    for i, t in enumerate(parts):
        s = t._d.shape
        if len(s) != nd:
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {nd} and {len(s)}"
            )
        for j in range(nd):
            if j != d and s[j] != ref[j]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{ref[j]} but got size {s[j]} for tensor number {i} in the list."
                )
    data = np.concatenate([t._d for t in parts], axis=d).astype(_joined(parts), copy=False)
    sizes = tuple(t._d.shape for t in ts)
    return record(CatBackward0, data, tuple(ts), {"dim": d}, shapes=sizes)


concat = concatenate = cat


def _joined(ts: list[Tensor]) -> Any:
    """PyTorch's result dtype of joining `ts` (int with float32 stays float32, unlike NumPy)."""
    dt = ts[0].dtype
    for t in ts[1:]:
        dt = _dtype.promote(dt, t.dtype)
    return dt.np


class CatBackward0(OpNode):
    __slots__ = ()
    _name = "CatBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.index import narrow

        g = grads[0]
        assert g is not None and self._shapes is not None
        d = self.saved("dim")
        out: Grads = []
        off = 0
        for i, s in enumerate(self._shapes):
            if len(s) == 1 and s[0] == 0 and g._d.ndim != 1:
                out.append(make(np.zeros(s, g._d.dtype), False, None, 0))
                continue
            out.append(narrow(g, d, off, s[d]) if self.needs(i) else None)
            off += s[d]
        return out


def stack(tensors: Any, dim: int = 0) -> Tensor:
    """Join tensors along a new dim (StackBackward0)."""
    return stack_as(StackBackward0, tensors, dim)


def stack_as(node: type[StackBackward0], tensors: Any, dim: int = 0) -> Tensor:
    """`stack` recorded as `node`: a fused op whose output PyTorch makes in one node (an LSTM
    layer's MkldnnRnnLayerBackward0) and whose gradient is stack's."""
    ts = _seq(tensors, "stack")
    ref = ts[0]._d.shape
    for i, t in enumerate(ts):
        if t._d.shape != ref:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(ref)} at entry 0 "
                f"and {list(t._d.shape)} at entry {i}"
            )
    d = _wrap_dim(dim, len(ref) + 1)
    data = np.stack([t._d for t in ts], axis=d).astype(_joined(ts), copy=False)
    return record(node, data, tuple(ts), {"dim": d})


class StackBackward0(OpNode):
    __slots__ = ()
    _name = "StackBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.index import select

        g = grads[0]
        assert g is not None
        d = self.saved("dim")
        return [select(g, d, i) if self.needs(i) else None for i in range(len(self.next_functions))]


def hstack(tensors: Any) -> Tensor:
    ts = [t if t._d.ndim else reshape(t, (1,)) for t in _seq(tensors, "hstack")]
    return cat(ts, 0 if ts[0]._d.ndim == 1 else 1)


def vstack(tensors: Any) -> Tensor:
    ts = _seq(tensors, "vstack")
    ts = [
        reshape(t, (1, 1)) if t._d.ndim == 0 else unsqueeze(t, 0) if t._d.ndim == 1 else t
        for t in ts
    ]
    return cat(ts, 0)


row_stack = vstack


def _multi_views(
    self: Tensor,
    datas: list[Any],
    node: type[OpNode],
    saved: dict[str, Any],
    keys: list[Any],
    what: str,
) -> tuple[Tensor, ...]:
    outs = record_multi(node, datas, (self,), saved)
    for o, key in zip(outs, keys):
        as_view(o, self, lambda a, k=key: a[k])
        o.__dict__["_multi_view"] = what
    return tuple(outs)


def split(self: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Pieces of `split_size` along `dim` (SplitBackward0), or of the listed sizes."""
    return _split(self, split_size_or_sections, dim, SplitBackward0)


def _split(
    self: Tensor, split_size_or_sections: Any, dim: int, by_size: type[SplitBackward0]
) -> tuple[Tensor, ...]:
    d = _wrap_dim(dim, self._d.ndim)
    n = self._d.shape[d]
    pre = (slice(None),) * d
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step < 0:
            raise RuntimeError(
                f"split expects split_size be non-negative, but got split_size={step}"
            )
        if step == 0 and n:
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
            )
        starts = list(range(0, n, step)) if step > 0 else [0]
        bounds = [(s, min(s + step, n)) for s in starts] or [(0, 0)]
        node: type[OpNode] = by_size
        saved: dict[str, Any] = {"split_size": step, "dim": d, "self_sym_sizes": self._d.shape}
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != n:
            raise RuntimeError(
                "split_with_sizes expects split_sizes to sum exactly to "
                f"{n} (input tensor's size at dimension {d}), but got split_sizes={sizes}"
            )
        bounds, off = [], 0
        for s in sizes:
            bounds.append((off, off + s))
            off += s
        node = SplitWithSizesBackward0
        saved = {"split_sizes": sizes, "dim": d, "self_sym_sizes": self._d.shape}
    keys = [(*pre, slice(a, b)) for a, b in bounds]
    what = "SplitWithSizes" if node is SplitWithSizesBackward0 else "Split"
    return _multi_views(self, [self._d[k] for k in keys], node, saved, keys, what)


def chunk(self: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """`chunks` near-equal pieces (PyTorch records it as a split)."""
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    n = self._d.shape[_wrap_dim(dim, self._d.ndim)]
    return split(self, max(-(-n // chunks), 1), dim)


def unsafe_chunk(self: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """`chunk` as ATen's RNN cells split their gates: one UnsafeSplitBackward0 node."""
    n = self._d.shape[_wrap_dim(dim, self._d.ndim)]
    return _split(self, max(-(-n // chunks), 1), dim, UnsafeSplitBackward0)


class SplitBackward0(OpNode):
    __slots__ = ()
    _name = "SplitBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [cat(zeros_for(self, grads), self.saved("dim"))]


class SplitWithSizesBackward0(SplitBackward0):
    __slots__ = ()
    _name = "SplitWithSizesBackward0"


class UnsafeSplitBackward0(SplitBackward0):
    __slots__ = ()
    _name = "UnsafeSplitBackward0"
    _listed = False  # recorded by the RNN cells (engine/nn/modules/rnn/cell.py), not an op row


def unbind(self: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices along `dim` (UnbindBackward0)."""
    d = _wrap_dim(dim, self._d.ndim)
    pre = (slice(None),) * d
    keys: list[Any] = [(*pre, i, Ellipsis) for i in range(self._d.shape[d])]
    datas = [self._d[k] for k in keys]
    return _multi_views(self, datas, UnbindBackward0, {"dim": d}, keys, "Unbind")


class UnbindBackward0(OpNode):
    __slots__ = ()
    _name = "UnbindBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [stack(zeros_for(self, grads), self.saved("dim"))]


def _dims(dims: Any, nd: int) -> tuple[int, ...]:
    if isinstance(dims, int):
        dims = (dims,)
    return tuple(_wrap_dim(d, nd) for d in dims)


def flip(self: Tensor, *dims: Any, **kw: Any) -> Tensor:
    """Reverse the order along `dims` (a copy, as in PyTorch)."""
    if kw:
        dims = kw_arg(dims, kw, "dims")
    ds = _dims(_shape_arg(dims), self._d.ndim)
    data = np.flip(self._d, ds).copy() if ds else self._d.copy()
    return record(FlipBackward0, data, (self,), {"dims": ds})


class FlipBackward0(OpNode):
    __slots__ = ()
    _name = "FlipBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [flip(grads[0], self.saved("dims"))]  # type: ignore[arg-type]


def roll(self: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    """Rotate elements along `dims` (the flattened tensor when no dims)."""
    sh = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    ds = () if dims is None else _dims(dims, self._d.ndim)
    if ds and len(sh) != len(ds):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:{len(ds)}")
    data = np.roll(self._d, sh if ds else sh[0], ds if ds else None)
    return record(RollBackward0, data, (self,), {"shifts": sh, "dims": ds})


class RollBackward0(OpNode):
    __slots__ = ()
    _name = "RollBackward0"

    def apply(self, grads: Grads) -> Grads:
        ds = self.saved("dims")
        back = tuple(-s for s in self.saved("shifts"))
        return [roll(grads[0], back if ds else back[0], ds or None)]  # type: ignore[arg-type]


def _tri(self: Tensor, diagonal: int, name: str) -> np.ndarray[Any, Any]:
    if self._d.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    fn = np.tril if name == "tril" else np.triu
    return fn(self._d, diagonal).astype(self._d.dtype, copy=False)


def tril(self: Tensor, diagonal: int = 0) -> Tensor:
    """Lower triangle (the rest zeroed)."""
    return record(TrilBackward0, _tri(self, diagonal, "tril"), (self,), {"diagonal": diagonal})


def triu(self: Tensor, diagonal: int = 0) -> Tensor:
    """Upper triangle (the rest zeroed)."""
    return record(TriuBackward0, _tri(self, diagonal, "triu"), (self,), {"diagonal": diagonal})


class TrilBackward0(OpNode):
    __slots__ = ()
    _name = "TrilBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [tril(grads[0], self.saved("diagonal"))]  # type: ignore[arg-type]


class TriuBackward0(OpNode):
    __slots__ = ()
    _name = "TriuBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [triu(grads[0], self.saved("diagonal"))]  # type: ignore[arg-type]


def diagonal(self: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal as a (writable) view, moved to the last dim."""
    nd = self._d.ndim
    d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    fn = _diag_fn(offset, d1, d2)
    saved = {"offset": offset, "dim1": d1, "dim2": d2, "self_sym_sizes": self._d.shape}
    out = record(DiagonalBackward0, fn(self._d), (self,), saved, shapes=(self._d.shape,))
    return as_view(out, self, fn)


class DiagonalBackward0(OpNode):
    __slots__ = ()
    _name = "DiagonalBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.views import embed

        g = grads[0]
        assert g is not None and self._shapes is not None
        off, d1, d2 = self.saved("offset"), self.saved("dim1"), self.saved("dim2")
        return [embed(g, self._shapes[0], _diag_fn(off, d1, d2))]


def _diag_fn(off: int, d1: int, d2: int) -> Any:
    def fn(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        v = np.diagonal(a, off, d1, d2)
        if a.flags.writeable:
            v.flags.writeable = True  # PyTorch's diagonal is a writable view
        return v

    return fn


OPS = [
    Op("clone", clone),
    Op("contiguous", contiguous, function=False),
    Op("repeat", repeat, function=False),
    Op("split", split),
    Op("chunk", chunk),
    Op("unbind", unbind),
    Op("flip", flip),
    Op("roll", roll),
    Op("tril", tril, out=True),
    Op("triu", triu, out=True),
    Op("diagonal", diagonal),
    Op("cat", cat, method=False, out=True),
    Op("concat", concat, method=False, out=True),
    Op("concatenate", concatenate, method=False, out=True),
    Op("stack", stack, method=False, out=True),
    Op("hstack", hstack, method=False, out=True),
    Op("vstack", vstack, method=False, out=True),
    Op("row_stack", row_stack, method=False, out=True),
]
