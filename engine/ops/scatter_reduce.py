"""`scatter_reduce`: values of `src` combined into a copy of `self` at `index` along `dim`
(sum, prod, mean, amax, amin), with or without `self`'s own values; backward as PyTorch's
`scatter_reduce_backward`, written with engine ops so it can be differentiated again.
`index_reduce` is the same reduction with one index per slice of `source` along `dim`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, _wrap_dim, make
from engine._warn import warn_once
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, unbroadcast
from engine.ops.scatter import _along, check_index_shape
from engine.ops.table import Op

_REDUCES = ("sum", "prod", "mean", "amax", "amin")
_ALIASES = {"max": "amax", "min": "amin"}  # PyTorch accepts these spellings too
_UFUNCS: dict[str, Any] = {
    "sum": np.add,
    "mean": np.add,
    "prod": np.multiply,
    "amax": np.maximum,
    "amin": np.minimum,
}
_MISSING = object()


def _identity(reduce: str, dt: np.dtype[Any]) -> Any:
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    big = (
        np.inf if _dtype.kind(dt) in "fc" else np.iinfo(dt).max if _dtype.kind(dt) in "iu" else True
    )
    return -big if reduce == "amax" else big


def scatter_reduce(
    self: Tensor,
    dim: int,
    index: Tensor,
    src: Tensor,
    reduce: Any = _MISSING,
    *,
    include_self: bool = True,
) -> Tensor:
    """Reduce `src` into a copy of `self` at `index` along `dim` (ScatterReduceBackward0).

    >>> x = torch.zeros(3)
    >>> x.scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([1., 2., 3.]), "amax")
    tensor([2., 0., 3.])
    """
    if reduce is _MISSING:
        raise TypeError('scatter_reduce() missing 1 required positional arguments: "reduce"')
    red = _ALIASES.get(reduce, reduce)
    if red not in _REDUCES:
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    d = _wrap_dim(dim, self._d.ndim)
    if index._d.dtype not in (np.int64, np.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if self.dtype is not src.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    check_index_shape("self", self._d.shape, d, index._d.shape, src._d.shape, scatter=True)
    idx = index._d.astype(np.int64, copy=False)
    out = _reduce_into(self._d, d, idx, src._d, red, include_self)
    saved = {
        "dim": d,
        "include_self": bool(include_self),
        "index": index,
        "reduce": reduce,
        "self": self,
        "src": src,
    }
    return record(
        ScatterReduceBackward0, out, (self, src), saved, "result", (self._d.shape, src._d.shape)
    )


def _reduce_into(
    a: np.ndarray[Any, Any],
    d: int,
    idx: np.ndarray[Any, Any],
    s: np.ndarray[Any, Any],
    red: str,
    include_self: bool,
) -> np.ndarray[Any, Any]:
    out = a.copy()
    key = _along(idx, d, a.shape[d] if a.ndim else None)
    vals = s[tuple(slice(0, n) for n in idx.shape)]
    if not include_self:
        out[key] = _identity(red, a.dtype)
    _UFUNCS[red].at(out, key, vals)
    if red == "mean":
        count = np.ones(a.shape, np.int64) if include_self else np.zeros(a.shape, np.int64)
        np.add.at(count, key, 1)
        count[count == 0] = 1
        if _dtype.kind(a.dtype) in "fc":
            out = (out / count).astype(a.dtype)
        else:
            out = np.floor_divide(out, count).astype(a.dtype)
    return out


class ScatterReduceBackward0(OpNode):
    __slots__ = ()
    _name = "ScatterReduceBackward0"

    def apply(self, grads: Grads) -> Grads:
        g: Any = grads[0]
        assert g is not None
        gs, gsrc = _backward(
            g,
            self.saved("self"),
            self.saved("dim"),
            self.saved("index"),
            self.saved("src"),
            self.saved("reduce"),
            self.saved("include_self"),
            self.saved("result"),
        )
        if self.needs(1):
            gsrc = _checked(self, gsrc)
        return [gs if self.needs(0) else None, gsrc if self.needs(1) else None]


def _checked(node: OpNode, g: Any) -> Any:
    """PyTorch's check of a node's output gradient: src's gradient has index's shape, which
    PyTorch refuses when src is larger than index."""
    assert node._shapes is not None
    want = node._shapes[1]
    if g._d.shape == want:
        return g
    try:
        fits = np.broadcast_shapes(want, g._d.shape) == g._d.shape
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(
            f"Function {node.name()} returned an invalid gradient at index 1 - got "
            f"{list(g._d.shape)} but expected shape compatible with {list(want)}"
        )
    return unbroadcast(g, want)


_PROD_TWICE = {
    "scatter_reduce": "scatter_reduce(): Double backward is unsupported for src when >1 zeros in "
    "src are scattered to the same position in self",
    "index_reduce": "index_reduce(): Double backward is unsupported for source when >1 zeros in "
    "source are scattered to the same position in self",
}


def _backward(
    grad: Any, x: Any, d: int, index: Any, src: Any, red: str, include_self: bool, result: Any,
    op: str = "scatter_reduce",
) -> tuple[Any, Any]:  # fmt: skip
    """PyTorch's scatter_reduce_backward (FunctionsManual.cpp), op for op (index_reduce's is
    the same with the index spread along `dim`)."""
    if red not in _REDUCES:  # the forward took "max"/"min"; its backward does not
        raise RuntimeError(
            f"Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got {red}."
        )
    if red == "sum":
        grad_self = grad
        grad_src = grad.gather(d, index)
    elif red == "prod":
        # the exclusive product, computed apart where self or src hold zeros
        masked_self = x.masked_fill(x == 0, 1)
        masked_self_result = masked_self.scatter_reduce(
            d, index, src, red, include_self=include_self
        )
        grad_self = grad * masked_self_result / masked_self
        src_zero = src == 0
        zeros = _const(np.zeros(x._d.shape, x._d.dtype))
        src_num_zeros = zeros.scatter_add(d, index, src_zero.to(x.dtype)).gather(d, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src = src.masked_fill(src_single_zero, 1)
        masked_src_result = x.scatter_reduce(d, index, masked_src, red, include_self=include_self)
        from engine.ops.pointwise import where

        grad_src = where(
            src_single_zero,
            (grad * masked_src_result).gather(d, index),
            (grad * result).gather(d, index) / src.masked_fill(src_zero, 1),
        )
        if STATE.enabled and bool(np.any(src_num_zeros._d > 1)):  # as ATen's DelayedError
            from engine.autograd.function import delayed_error

            (grad_src,) = delayed_error(_PROD_TWICE[op], (grad_src,), detach=False)
    elif red == "mean":
        start = np.ones if include_self else np.zeros
        n = _const(start(grad._d.shape, grad._d.dtype))
        n = n.scatter_add(d, index, _const(np.ones(src._d.shape, grad._d.dtype)))
        n = n.masked_fill(n == 0, 1)
        grad_self = grad / n
        grad_src = grad.gather(d, index) / n.gather(d, index)
    else:  # amax / amin: the gradient is shared evenly between ties
        value = result.gather(d, index)
        self_is_result = (x == result).to(x.dtype)
        src_is_result = (src == value).to(x.dtype)
        n_to_distribute = self_is_result.scatter_add(d, index, src_is_result)
        grad_distributed = grad / n_to_distribute
        grad_self = (x == result) * grad_distributed
        grad_src = (src == value) * grad_distributed.gather(d, index)
    if not include_self:
        hit = _const(np.zeros(grad._d.shape, np.bool_)).scatter(d, index, True)
        grad_self = grad_self.masked_fill(hit, 0)
    return grad_self, grad_src


_INDEX_REDUCE_BETA = (
    "index_reduce() is in beta and the API may change at any time. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:1523.)"
)


def index_reduce(
    self: Tensor,
    dim: int,
    index: Tensor,
    source: Tensor,
    reduce: Any = _MISSING,
    *,
    include_self: bool = True,
) -> Tensor:
    """Reduce the slices of `source` along `dim` into a copy of `self` at `index` (prod, mean,
    amax, amin; IndexReduceBackward0). PyTorch warns once that it is in beta.

    >>> torch.ones(3).index_reduce(0, torch.tensor([0, 0]), torch.tensor([2., 3.]), "prod")
    tensor([6., 1., 1.])
    """
    if reduce is _MISSING:
        raise TypeError('index_reduce() missing 1 required positional arguments: "reduce"')
    warn_once(_INDEX_REDUCE_BETA)
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(
            f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
            f"{reduce}."
        )
    d = _wrap_dim(dim, self._d.ndim)
    idx = _index_along(self, d, index, source)
    out = _reduce_into(self._d, d, idx, source._d, reduce, include_self)
    saved = {
        "dim": d,
        "include_self": bool(include_self),
        "index": index,
        "reduce": reduce,
        "self": self,
        "source": source,
    }
    return record(
        IndexReduceBackward0, out, (self, source), saved, "result",
        (self._d.shape, source._d.shape),
    )  # fmt: skip


def _index_along(self: Tensor, d: int, index: Tensor, source: Tensor) -> np.ndarray[Any, Any]:
    """`index` checked as PyTorch does, then spread over `source`'s shape (scatter's index)."""
    from engine.ops.inplace import type_name

    i = index._d
    if i.ndim > 1:
        raise IndexError(
            f"index_reduce_(): Index is supposed to be a vector, but got dim: {i.ndim} with "
            f"type: {type_name(index.dtype)} and size: {list(i.shape)}"
        )
    if i.dtype not in (np.int32, np.int64):
        raise RuntimeError(
            f"index_reduce_(): Expected dtype int32/int64 for index but got: "
            f"{type_name(index.dtype)}"
        )
    along = source._d.shape[d] if source._d.ndim else 1
    if i.size != along:
        raise RuntimeError(
            f"index_reduce_(): Number of indices ({i.size}) should be equal to source.size(dim): "
            f"({along}), for dim: {d}"
        )
    if self.dtype is not source.dtype:
        raise RuntimeError(
            f"index_reduce_(): self ({type_name(self.dtype)}) and source "
            f"({type_name(source.dtype)}) must have the same scalar type"
        )
    n = self._d.shape[d] if self._d.ndim else 1
    flat = i.reshape(-1).astype(np.int64)
    if flat.size and (flat.max() >= n or flat.min() < -n):
        raise IndexError("index out of range in self")
    shape = [1] * source._d.ndim
    if shape:
        shape[d] = -1
    return np.broadcast_to(flat.reshape(shape) % n, source._d.shape)


class IndexReduceBackward0(OpNode):
    """ATen's index_reduce_backward: scatter_reduce's, with the index spread along `dim`."""

    __slots__ = ()
    _name = "IndexReduceBackward0"

    def apply(self, grads: Grads) -> Grads:
        g: Any = grads[0]
        assert g is not None
        x, d, source = self.saved("self"), self.saved("dim"), self.saved("source")
        idx = _const(np.array(_index_along(x, d, self.saved("index"), source)))
        gs, gsrc = _backward(
            g, x, d, idx, source, self.saved("reduce"), self.saved("include_self"),
            self.saved("result"), "index_reduce",
        )  # fmt: skip
        return [gs if self.needs(0) else None, gsrc if self.needs(1) else None]


def _const(a: np.ndarray[Any, Any]) -> Any:
    return make(a, False, None, 0)


OPS = [
    Op("scatter_reduce", scatter_reduce, inplace=True, out=True),
    Op("index_reduce", index_reduce, inplace=True, out=True),
]
