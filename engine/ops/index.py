"""Indexing: `t[...]` and `t[...] = v` built from select/slice/unsqueeze views and advanced
indexing exactly as PyTorch records them (`x[0, 1]` is SelectBackward0 over SelectBackward0)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, _wrap_dim, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, as_tensor, broadcast_error, record, variant
from engine.ops.shape import as_view, expand, unsqueeze, view
from engine.ops.table import Op

INT64_MAX = 9223372036854775807
# the C++ type PyTorch names when a complex scalar is assigned into a real tensor
_C_TYPE = {"float32": "float", "int64": "int64_t", "int32": "int", "int16": "int16_t"}
_C_TYPE.update({"int8": "int8_t", "uint8": "uint8_t", "float64": "double", "float16": "double"})
_FULL = slice(None)


def select(self: Tensor, dim: int, index: int) -> Tensor:
    """The slice at `index` along `dim`, dropping that dim (a view)."""
    nd = self._d.ndim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, nd)
    size = self._d.shape[d]
    i = int(index)
    if not -size <= i < size:
        raise IndexError(
            f"select(): index {i} out of range for tensor of size {list(self._d.shape)} at "
            f"dimension {d}"
        )
    return _select(self, d, i)


def _select(self: Tensor, d: int, index: int) -> Tensor:
    i = index % self._d.shape[d]
    key: Any = (_FULL,) * d + (i, Ellipsis)  # Ellipsis: a 0-d array view, never a NumPy scalar
    # PyTorch saves the index as given, a negative one read back as its uint64 bits
    shown = index if index >= 0 else index + 2**64
    saved = {"dim": d, "index": shown, "self_sym_sizes": self._d.shape}
    out = record(SelectBackward0, self._d[key], (self,), saved, shapes=(self._d.shape,))
    return as_view(out, self, lambda a: a[key])


class SelectBackward0(OpNode):
    __slots__ = ()
    _name = "SelectBackward0"

    def apply(self, grads: Grads) -> Grads:

        assert self._shapes is not None and grads[0] is not None
        index = self.saved("index")
        at = index - 2**64 if index >= 2**63 else index  # a negative index, saved as uint64
        key = (_FULL,) * self.saved("dim") + (at, Ellipsis)
        saved = {"dim": self.saved("dim"), "index": self.saved("index")}
        return [_embedded(self, grads[0], lambda a: a[key], saved)]


def _slice(self: Tensor, d: int, start: Any, stop: Any, step: Any) -> Tensor:
    key = (_FULL,) * d + (slice(start, stop, step),)
    saved = {
        "dim": d,
        "start": 0 if start is None else start,
        "end": INT64_MAX if stop is None else stop,
        "step": 1 if step is None else step,
        "self_sym_sizes": self._d.shape,
    }
    out = record(SliceBackward0, self._d[key], (self,), saved, shapes=(self._d.shape,))
    return as_view(out, self, lambda a: a[key])


class SliceBackward0(OpNode):
    __slots__ = ()
    _name = "SliceBackward0"

    def apply(self, grads: Grads) -> Grads:

        assert self._shapes is not None and grads[0] is not None
        s = self.saved
        key = (_FULL,) * s("dim") + (slice(s("start"), s("end"), s("step")),)
        saved = {k: s(k) for k in ("dim", "end", "start", "step")}
        return [_embedded(self, grads[0], lambda a: a[key], saved)]


def _embedded(node: OpNode, g: Tensor, vf: Any, saved: dict[str, Any]) -> Tensor:
    """Zeros of the input's shape with `g` written into the view `vf`: under create_graph one
    node named as PyTorch's (`SliceBackwardBackward0`, whose backward is the view again), not
    the copy into a view of zeros (CopySlices)."""
    from engine.ops.nn_ops import linear_grad
    from engine.ops.views import embed

    assert node._shapes is not None
    shape = node._shapes[0]
    if not (STATE.enabled and g._rg):
        return embed(g, shape, vf)

    def spread(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        z = np.zeros(shape, a.dtype)
        vf(z)[...] = a
        return z

    def view(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return np.array(vf(a), copy=True)  # (ascontiguousarray makes a 0-d view 1-d)

    return linear_grad(node._name, g, spread, view, saved=saved)


def _narrowed(self: Tensor, dim: int, start: Any, length: int) -> tuple[int, int]:
    """(dim, start) of `narrow`, both wrapped and checked."""
    d = _wrap_dim(dim, self._d.ndim)
    size = self._d.shape[d]
    st = int(start)
    if st < 0:
        st += size
    if st + length > size:
        raise RuntimeError(f"start ({st}) + length ({length}) exceeds dimension size ({size}).")
    return d, st


def narrow(self: Tensor, dim: int, start: Any, length: int) -> Tensor:
    """`length` elements from `start` along `dim` (SliceBackward0)."""
    d, st = _narrowed(self, dim, start, length)
    return _slice(self, d, st, st + length, 1)


def narrow_copy(self: Tensor, dim: int, start: Any, length: int) -> Tensor:
    """`narrow`'s elements in a new tensor (NarrowCopyBackward0)."""
    d, st = _narrowed(self, dim, start, length)
    key = (_FULL,) * d + (slice(st, st + length),)
    # PyTorch saves the start as given (a negative one shows wrapped to uint64, and its
    # backward then writes into an empty slice and fails: kept)
    start = int(start)
    saved = {"dim": d, "length": length, "self_sym_sizes": self._d.shape,
             "start": start if start >= 0 else start + 2**64}  # fmt: skip
    data = np.ascontiguousarray(self._d[key])
    return record(NarrowCopyBackward0, data, (self,), saved, shapes=(self._d.shape,))


class NarrowCopyBackward0(OpNode):
    __slots__ = ()
    _name = "NarrowCopyBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.views import embed

        assert self._shapes is not None and grads[0] is not None
        s = self.saved
        start = s("start") - 2**64 if s("start") >= 2**63 else s("start")
        key = (_FULL,) * s("dim") + (slice(start, start + s("length")),)
        room = np.empty(self._shapes[0], np.bool_)[key].shape
        if room != grads[0]._d.shape:
            raise broadcast_error(np.empty(room), grads[0]._d)
        return [embed(grads[0], self._shapes[0], lambda a: a[key])]


def alias(self: Tensor) -> Tensor:
    """The same tensor as a new view (what `x[...]` returns)."""
    out = record(AliasBackward0, self._d.view(), (self,))
    return as_view(out, self, lambda a: a.view())


class AliasBackward0(OpNode):
    __slots__ = ()
    _name = "AliasBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0]]


# -- t[idx] ------------------------------------------------------------------------------
def _index_array(it: Any) -> np.ndarray[Any, Any]:
    arr = it._d if isinstance(it, Tensor) else np.asarray(list(it) if isinstance(it, range) else it)
    if _dtype.kind(arr.dtype) == "f" or (_dtype.kind(arr.dtype) not in "iub" and arr.size):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return arr.astype(np.int64) if _dtype.kind(arr.dtype) in "iu" else arr.astype(bool)


def _is_int(it: Any) -> bool:
    if isinstance(it, bool):
        return False
    if isinstance(it, int | np.integer):
        return True
    return isinstance(it, Tensor) and it._d.ndim == 0 and _dtype.kind(it._d.dtype) in "iu"


def _consumed(idx: tuple[Any, ...]) -> int:
    n = 0
    for it in idx:
        if it is None or it is Ellipsis or isinstance(it, bool):
            continue
        if isinstance(it, Tensor) and it._d.dtype == np.bool_:
            n += max(it._d.ndim, 0)
        else:
            n += 1
    return n


def _bad_index(it: Any) -> IndexError | TypeError:
    if isinstance(it, str):
        return TypeError("new(): invalid data type 'str'")
    return IndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
        f"valid indices (got {type(it).__name__})"
    )


def apply_indices(self: Tensor, idx: tuple[Any, ...]) -> tuple[Tensor, list[tuple[int, Any]]]:
    """Apply the basic part of `idx` as views; return the view and the advanced indices."""
    nd = self._d.ndim
    consumed = _consumed(idx)
    if consumed > nd:
        if nd == 0:
            raise IndexError(
                "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
            )
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    cur, dim, orig = self, 0, 0
    adv: list[tuple[int, Any]] = []
    for it in idx:
        if it is None:
            cur = unsqueeze(cur, dim)
            dim += 1
        elif it is Ellipsis:
            dim += nd - consumed
            orig += nd - consumed
        elif isinstance(it, bool) or (
            isinstance(it, Tensor) and it._d.ndim == 0 and it._d.dtype == np.bool_
        ):
            # a new dim indexed by a fresh mask of its value, as PyTorch does: `x[m] = v`
            # writes through that view and keeps nothing of `m` (which may change later)
            cur = unsqueeze(cur, dim)
            adv.append((dim, np.array([bool(it)])))
            dim += 1
        elif _is_int(it):
            size = cur._d.shape[dim]
            i = int(it)
            if not -size <= i < size:
                raise IndexError(
                    f"index {i} is out of bounds for dimension {orig} with size {size}"
                )
            cur = _select(cur, dim, i)
            orig += 1
        elif isinstance(it, slice):
            cur = _apply_slice(cur, dim, it)
            dim += 1
            orig += 1
        elif isinstance(it, Tensor | list | tuple | range | np.ndarray):
            arr = _index_array(it)
            k = arr.ndim if arr.dtype == np.bool_ else 1
            _check_adv(arr, cur._d.shape, dim, orig)
            adv.append((dim, it if isinstance(it, Tensor) else arr))
            dim += k
            orig += k
        else:
            raise _bad_index(it)
    return cur, adv


def _apply_slice(cur: Tensor, dim: int, s: slice) -> Tensor:
    step = 1 if s.step is None else int(s.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
        raise ValueError("step must be greater than zero")
    start = 0 if s.start is None else int(s.start)
    # PyTorch skips slices that keep the whole dim (by the raw bounds: `-3:` still slices)
    if start == 0 and step == 1 and (s.stop is None or int(s.stop) >= cur._d.shape[dim]):
        return cur
    return _slice(cur, dim, start, None if s.stop is None else int(s.stop), step)


def _check_adv(arr: np.ndarray[Any, Any], shape: tuple[int, ...], dim: int, orig: int) -> None:
    if arr.dtype == np.bool_:
        for j in range(arr.ndim):
            if dim + j >= len(shape) or arr.shape[j] != shape[dim + j]:
                raise IndexError(
                    f"The shape of the mask {list(arr.shape)} at index {j} does not match the "
                    f"shape of the indexed tensor {list(shape)} at index {dim + j}"
                )
        return
    size = shape[dim]
    if arr.size and (arr.max() >= size or arr.min() < -size):
        bad = int(arr.max()) if arr.max() >= size else int(arr.min())
        raise IndexError(f"index {bad} is out of bounds for dimension {orig} with size {size}")


def _adv_key(ndim: int, adv: list[tuple[int, Any]]) -> tuple[Any, ...]:
    """PyTorch's `indices` list: one entry per leading dim, None where not indexed."""
    key: list[Any] = []
    for dim, it in adv:
        key += [None] * (dim - len(key) - _extra(key))
        key.append(it if isinstance(it, Tensor) else make(it, False, None, 0))
    return tuple(key)


def _extra(key: list[Any]) -> int:
    # a k-dim bool mask covers k dims but takes one slot
    return sum(t._d.ndim - 1 for t in key if isinstance(t, Tensor) and t._d.dtype == np.bool_)


def np_key(indices: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(_FULL if t is None else t._d for t in indices)


def getitem(self: Tensor, idx: Any) -> Tensor:
    """`self[idx]` as PyTorch records it."""
    if not isinstance(idx, tuple):
        if isinstance(idx, slice):  # a lone slice always slices, even `x[:]`
            return _lone_slice(self, idx)
        if idx is Ellipsis:
            return alias(self)
        if isinstance(idx, list) and any(isinstance(i, slice | type(None)) for i in idx):
            idx = tuple(idx)
        else:
            idx = (idx,)
    cur, adv = apply_indices(self, idx)
    if adv:
        return index(cur, _adv_key(cur._d.ndim, adv))
    if cur is self:
        return alias(self)
    return cur


def _lone_slice(self: Tensor, s: slice) -> Tensor:
    if self._d.ndim == 0:
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )
    step = 1 if s.step is None else int(s.step)
    if step <= 0:
        raise ValueError(
            "slice step cannot be zero" if step == 0 else "step must be greater than zero"
        )
    return _slice(self, 0, 0 if s.start is None else int(s.start), s.stop, step)


def index(self: Tensor, indices: tuple[Any, ...]) -> Tensor:
    """Advanced indexing (IndexBackward0); `indices` as in `torch.ops.aten.index`."""
    data = self._d[np_key(indices)]
    saved = {"indices": indices, "self_sym_sizes": self._d.shape}
    return record(IndexBackward0, data, (self,), saved, shapes=(self._d.shape,))


class IndexBackward0(OpNode):
    __slots__ = ()
    _name = "IndexBackward0"
    _tensors = frozenset(("indices",))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        z = make(np.zeros(self._shapes[0], g._d.dtype), False, None, 0)
        # PyTorch's index_backward calls _index_put_impl_ (IndexPutImplBackward0)
        return [_index_put(z, self.saved("indices"), g, True, IndexPutImplBackward0)]


def index_put(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """A copy with `values` written (or added) at `indices` (IndexPutBackward0)."""
    return _index_put(self, indices, values, accumulate, IndexPutBackward0)


def _index_put(
    self: Tensor, indices: Any, values: Any, accumulate: bool, node: type[OpNode]
) -> Tensor:
    ind = tuple(
        None if i is None else i if isinstance(i, Tensor) else as_tensor(i) for i in indices
    )
    key = np_key(ind)
    dim = 0
    for i in ind:  # PyTorch's bounds message, not NumPy's ("axis")
        if i is not None:
            _check_adv(i._d, self._d.shape, dim, dim)
        dim += i._d.ndim if i is not None and i._d.dtype == np.bool_ else 1
    v = values if isinstance(values, Tensor) else as_tensor(values, self.dtype)
    out = self._d.copy()
    target = out[key].shape
    try:
        vd = np.broadcast_to(v._d, target)
    except ValueError:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(v._d.shape)} cannot be broadcast to "
            f"indexing result of shape {list(target)}"
        ) from None
    if accumulate:
        np.add.at(out, key, vd)
    else:
        out[key] = vd
    saved = {"indices": ind, "accumulate": accumulate}
    return record(node, out, (self, v), saved, shapes=(self._d.shape, v._d.shape))


class IndexPutBackward0(OpNode):
    __slots__ = ()
    _name = "IndexPutBackward0"
    _tensors = frozenset(("indices",))

    def apply(self, grads: Grads) -> Grads:
        from engine.ops._core import unbroadcast

        g = grads[0]
        assert g is not None and self._shapes is not None
        ind = self.saved("indices")
        gs: Tensor | None = None
        if self.needs(0):
            gs = g
            if not self.saved("accumulate"):
                gs = index_put(g, ind, make(np.zeros((), g._d.dtype), False, None, 0))
        gv = unbroadcast(index(g, ind), self._shapes[1]) if self.needs(1) else None
        return [gs, gv]


# only an indexing's double backward records it (no forward op: not listed)
IndexPutImplBackward0 = variant(IndexPutBackward0, "IndexPutImplBackward0", _listed=False)


def setitem(self: Tensor, idx: Any, value: Any) -> None:
    """`self[idx] = value`: in place, through views, as PyTorch's `copy_to`/`index_put_`."""
    from engine.ops.views import copy_, fill_

    if not isinstance(idx, tuple):
        idx = (idx,)
    dst, adv = apply_indices(self, idx)
    if type(value) is complex and _dtype.kind(self._d.dtype) not in "cb":
        raise RuntimeError(
            f"value cannot be converted to type {_C_TYPE.get(self.dtype.name, 'float')} without "
            "overflow"
        )
    if not isinstance(value, Tensor | bool | int | float | complex | np.generic):
        from engine._printing import legacy_type_name

        kind = type(value)
        what = (
            kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        )
        raise TypeError(f"can't assign a {what} to a {legacy_type_name(self.dtype)}")
    val = value if isinstance(value, Tensor) else as_tensor(value, self.dtype)
    if adv:
        dst.index_put_(_adv_key(dst._d.ndim, adv), val)
        return
    if dst._d.shape == val._d.shape:
        copy_(dst, val)
    elif val._d.ndim == 0:
        fill_(dst, val)
    else:
        shp = val._d.shape
        while shp and shp[0] == 1:
            shp = shp[1:]
        src = view(val, shp)
        if src._d.shape != dst._d.shape:
            src = expand(src, dst._d.shape)
        copy_(dst, src)


__getitem__ = getitem
__setitem__ = setitem

OPS = [
    Op("select", select),
    Op("narrow", narrow),
    Op("narrow_copy", narrow_copy, out=True),
    Op("__getitem__", __getitem__, function=False),
    Op("__setitem__", __setitem__, function=False),
    Op("index_put", index_put, inplace=True, inplace_function=True),
]
