"""Index-driven ops: gather, scatter, scatter_add, index_select, index_add, take and put."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, _wrap_dim, make
from engine._warn import warn
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.index import index_put
from engine.ops.inplace import type_name
from engine.ops.table import Op


def _long(index_t: Tensor, op: str) -> np.ndarray[Any, Any]:
    """The index array; gather and scatter take int32 as well as int64 indices."""
    if index_t._d.dtype not in (np.int32, np.int64):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index")
    return index_t._d


def _along(idx: np.ndarray[Any, Any], d: int, size: int | None = None) -> tuple[Any, ...]:
    """NumPy key picking `self[i0, .., idx[i], .., in]` for every position of `idx`."""
    if size is not None and idx.size:  # NumPy would wrap negatives and raise IndexError
        bad = idx[(idx < 0) | (idx >= size)]
        if bad.size:
            raise RuntimeError(
                f"index {int(bad.flat[0])} is out of bounds for dimension {d} with size {size}"
            )
    grids = list(np.indices(idx.shape, sparse=True)) if idx.ndim else []
    if not grids:
        return (idx,)
    grids[d] = idx
    return tuple(grids)


def _nonempty(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A 0-d array as a 1-element view: ATen's gather and scatter treat a scalar as size [1]."""
    return a.reshape(1) if a.ndim == 0 else a


def _sizes(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


def check_index_shape(
    what: str,
    shape: tuple[int, ...],
    d: int,
    index: tuple[int, ...],
    src: tuple[int, ...] | None = None,
    scatter: bool = False,
) -> None:
    """ATen's gather_shape_check (`what` = "input") and scatter_shape_check ("self"): the index
    has self's number of dims (a scalar counting as one) and is no larger than self off `d`,
    and no larger than `src` anywhere. An empty index is not checked."""
    if 0 in index:
        return
    ndim = max(len(shape), 1)
    if ndim != max(len(index), 1):
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {what} tensor")
    own, idx = shape or (1,), index or (1,)
    wrong = next((i for i in range(ndim) if i != d and idx[i] > own[i]), None)
    if not scatter:
        if wrong is not None:
            raise RuntimeError(
                f"Size does not match at dimension {wrong} expected index {_sizes(index)} to be "
                f"no larger than self {_sizes(shape)} apart from dimension {d}"
            )
        return
    message = (
        f"Expected index {_sizes(index)} to be no larger than self {_sizes(shape)} apart from "
        f"dimension {d}"
    )
    if src is not None:
        if wrong is None:
            for i in range(ndim):  # src.size(i) raises ATen's IndexError on a src with fewer dims
                if idx[i] > (src or (1,))[_wrap_dim(i, len(src))]:
                    wrong = i
                    break
        message += f" and to be no larger size than src {_sizes(src)}"
    if wrong is not None:
        raise RuntimeError(message)


def _key(out: np.ndarray[Any, Any], d: int, idx: np.ndarray[Any, Any]) -> tuple[Any, ...]:
    """The positions of `_nonempty(out)` an index writes along `d` (none for an empty index)."""
    if idx.size == 0:
        return (np.zeros(0, np.int64),) * max(out.ndim, 1)
    return _along(_nonempty(idx), d, _nonempty(out).shape[d])


def _part(src: Tensor, idx: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The leading block of `src` that an index reads (src may be larger than the index)."""
    if idx.size == 0:
        return np.zeros(0, src._d.dtype)
    return _nonempty(src._d)[tuple(slice(0, n) for n in _nonempty(idx).shape)]


def _zeros(shape: tuple[int, ...], like: Tensor) -> Tensor:
    return make(np.zeros(shape, like._d.dtype), False, None, 0)


def gather(self: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """`out[i][j] = self[index[i][j]][j]` along `dim` (GatherBackward0)."""
    d = _wrap_dim(dim, self._d.ndim)
    if index._d.size == 0:  # ATen checks neither dtype nor shape of an empty index
        data = np.zeros(index._d.shape, self._d.dtype)
    else:
        idx = _long(index, "gather")
        check_index_shape("input", self._d.shape, d, idx.shape)
        a = _nonempty(self._d)
        data = a[_along(_nonempty(idx), d, a.shape[d])].reshape(idx.shape)
    saved = {"dim": d, "index": index, "self": self, "sparse_grad": False}
    return record(GatherBackward0, data, (self,), saved, shapes=(self._d.shape,))


class GatherBackward0(OpNode):
    __slots__ = ()
    _name = "GatherBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        z = _zeros(self._shapes[0], g)
        return [scatter_add(z, self.saved("dim"), self.saved("index"), g)]


def scatter(
    self: Tensor,
    dim: int,
    index: Tensor,
    src: Any = None,
    value: Any = None,
    *,
    reduce: str | None = None,
) -> Tensor:
    """A copy with `src` (ScatterBackward0) or a scalar (ScatterBackward1) written at `index`."""
    d = _wrap_dim(dim, self._d.ndim)
    idx = _long(index, "scatter")
    if src is None:
        src = value
    if isinstance(src, Tensor):
        check_index_shape("self", self._d.shape, d, idx.shape, src._d.shape, scatter=True)
    else:
        check_index_shape("self", self._d.shape, d, idx.shape, scatter=True)
    out = self._d.copy()
    key = _key(out, d, idx)
    if reduce is not None:
        return _scatter_reduce_legacy(self, src, idx, key, out, reduce)
    if isinstance(src, Tensor):
        part = _part(src, idx)
        _nonempty(out)[key] = part
        saved = {"dim": d, "index": index}
        return record(
            ScatterBackward0, out, (self, src), saved, shapes=(self._d.shape, src._d.shape)
        )
    _nonempty(out)[key] = src
    return record(ScatterBackward1, out, (self,), {"dim": d, "index": index})


def _scatter_reduce_legacy(
    self: Tensor,
    src: Any,
    idx: np.ndarray[Any, Any],
    key: tuple[Any, ...],
    out: np.ndarray[Any, Any],
    reduce: str,
) -> Tensor:
    """`scatter(..., reduce="add" | "multiply")`: accumulated writes, with no derivative."""
    from engine.ops.remainder import not_implemented_node

    ufunc = {"add": np.add, "multiply": np.multiply}.get(reduce)
    if ufunc is None:
        raise RuntimeError("reduce argument must be either add or multiply.")
    inputs: tuple[Any, ...] = (self,)
    if isinstance(src, Tensor):
        from engine.autograd.engine import WARNED  # the engine's once-per-process warnings

        if "scatter_reduce" not in WARNED:  # TORCH_WARN_ONCE
            WARNED.add("scatter_reduce")
            warn(
                "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
                "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
                "reduction options. (Triggered internally at "
                "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:225.)",
                UserWarning,
            )
        part = _part(src, idx)
        inputs = (self, src)
    else:
        part = np.asarray(src).astype(out.dtype)
    ufunc.at(_nonempty(out), key, part)
    return not_implemented_node(out, inputs, "scatter")


class ScatterBackward0(OpNode):
    __slots__ = ()
    _name = "ScatterBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        d, idx = self.saved("dim"), self.saved("index")
        gs = scatter(g, d, idx, 0.0) if self.needs(0) else None
        return [gs, _pad_to(gather(g, d, idx), self) if self.needs(1) else None]


class ScatterBackward1(OpNode):
    __slots__ = ()
    _name = "ScatterBackward1"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [scatter(g, self.saved("dim"), self.saved("index"), 0.0)]


def _pad_to(g: Tensor, node: OpNode) -> Tensor:
    """The src gradient: zero where src was not read (src may be larger than index)."""
    assert node._shapes is not None
    shape = node._shapes[1]
    if g._d.shape == shape:
        return g
    z = _zeros(shape, g)
    key = tuple(
        make(np.arange(n).reshape((-1,) + (1,) * (len(shape) - i - 1)), False, None, 0)
        for i, n in enumerate(g._d.shape)
    )
    return index_put(z, key, g)


def scatter_add(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy with `src` added at `index` along `dim` (ScatterAddBackward0)."""
    d = _wrap_dim(dim, self._d.ndim)
    idx = _long(index, "scatter")  # PyTorch names scatter here
    check_index_shape("self", self._d.shape, d, idx.shape, src._d.shape, scatter=True)
    out = self._d.copy()
    np.add.at(_nonempty(out), _key(out, d, idx), _part(src, idx))
    saved = {"dim": d, "index": index}
    return record(
        ScatterAddBackward0, out, (self, src), saved, shapes=(self._d.shape, src._d.shape)
    )


class ScatterAddBackward0(OpNode):
    __slots__ = ()
    _name = "ScatterAddBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        gs = g if self.needs(0) else None
        gsrc = None
        if self.needs(1):
            gsrc = _pad_to(gather(g, self.saved("dim"), self.saved("index")), self)
        return [gs, gsrc]


def index_select(self: Tensor, dim: int, index: Tensor) -> Tensor:
    """The entries `index` along `dim` (IndexSelectBackward0)."""
    d = _wrap_dim(dim, self._d.ndim)
    if index._d.dtype not in (np.int32, np.int64):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if index._d.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    idx = index._d.reshape(-1) if index._d.ndim else index._d.reshape(1)
    data = np.take(self._d, idx, axis=d) if self._d.ndim else self._d.copy()
    saved = {"dim": d, "index": index, "self_sym_sizes": self._d.shape}
    return record(IndexSelectBackward0, data, (self,), saved, shapes=(self._d.shape,))


class IndexSelectBackward0(OpNode):
    __slots__ = ()
    _name = "IndexSelectBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        z = _zeros(self._shapes[0], g)
        return [index_add(z, self.saved("dim"), self.saved("index"), g)]


def index_add(self: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """A copy with `alpha * source` added at `index` along `dim` (IndexAddBackward0)."""
    d = _wrap_dim(dim, self._d.ndim)
    if index._d.dtype not in (np.int32, np.int64):
        raise RuntimeError(
            "index_add_(): Expected dtype int32/int64 for index but got: " + type_name(index.dtype)
        )
    out = self._d.copy()
    key: Any = (slice(None),) * d + (index._d.reshape(-1),)
    np.add.at(out, key, source._d * alpha if alpha != 1 else source._d)
    saved = {"dim": d, "index": index, "alpha": alpha, "source": source}
    saved["source_dim"] = source._d.ndim
    return record(
        IndexAddBackward0, out, (self, source), saved, shapes=(self._d.shape, source._d.shape)
    )


class IndexAddBackward0(OpNode):
    __slots__ = ()
    _name = "IndexAddBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        gsrc = None
        if self.needs(1):
            gsrc = index_select(g, self.saved("dim"), self.saved("index"))
            if self.saved("alpha") != 1:
                gsrc = gsrc * self.saved("alpha")
        return [g if self.needs(0) else None, gsrc]


def take(self: Tensor, index: Tensor) -> Tensor:
    """Entries of the flattened tensor at `index` (TakeBackward0)."""
    flat = self._d.reshape(-1)
    n = flat.size
    if index._d.dtype != np.int64:
        raise RuntimeError(
            f"take(): Expected a long tensor for index, but got {type_name(index.dtype)}"
        )
    idx = index._d
    if idx.size and (idx.max() >= n or idx.min() < -n):
        bad = int(idx.max()) if idx.max() >= n else int(idx.min())
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    saved = {"index": index, "self": self}
    return record(TakeBackward0, flat[idx], (self,), saved, shapes=(self._d.shape,))


class TakeBackward0(OpNode):
    __slots__ = ()
    _name = "TakeBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.shape import reshape

        g = grads[0]
        assert g is not None and self._shapes is not None
        n = 1
        for s in self._shapes[0]:
            n *= s
        flat = index_put(_zeros((n,), g), (self.saved("index"),), g, True)
        return [reshape(flat, self._shapes[0])]


def put(self: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy with `source` written (or added) at flat positions `index` (PutBackward0)."""
    if index._d.dtype != np.int64:
        raise RuntimeError(
            f"put_(): Expected a long tensor for index, but got {type_name(index.dtype)}"
        )
    if self.dtype is not source.dtype:
        raise RuntimeError(
            "put_(): self and source expected to have the same dtype, but got self.dtype = "
            f"{type_name(self.dtype)} and source.dtype = {type_name(source.dtype)}"
        )
    if source._d.size != index._d.size:
        raise IndexError(
            "put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {source._d.size}, index.numel() = {index._d.size}"
        )
    out = self._d.copy()
    flat = out.reshape(-1)
    n = flat.size
    idx = index._d.reshape(-1)
    if idx.size and (idx.max() >= n or idx.min() < -n):
        bad = int(idx.max()) if idx.max() >= n else int(idx.min())
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    if accumulate:
        np.add.at(flat, idx, source._d.reshape(-1))
    else:
        flat[idx] = source._d.reshape(-1)
    saved = {"accumulate": bool(accumulate), "index": index, "source": source}
    return record(PutBackward0, out, (self, source), saved)


class PutBackward0(OpNode):
    __slots__ = ()
    _name = "PutBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.shape import reshape

        g = grads[0]
        assert g is not None
        index, source = self.saved("index"), self.saved("source")
        gs = None
        if self.needs(0):
            zeros = _zeros(source._d.shape, g)
            gs = g if self.saved("accumulate") else put(g, index, zeros, False)
        gsrc = reshape(take(g, index), source._d.shape) if self.needs(1) else None
        return [gs, gsrc]


OPS = [
    Op("gather", gather, out=True),
    Op("scatter", scatter, inplace=True, out=True),
    Op("scatter_add", scatter_add, inplace=True, out=True),
    Op("index_select", index_select, out=True),
    Op("index_add", index_add, inplace=True, out=True),
    Op("take", take, out=True),
    Op("put", put, inplace=True),
]
