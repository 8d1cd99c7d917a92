"""`scatter_reduce`: values of `src` combined into a copy of `self` at `index` along `dim`
(sum, prod, mean, amax, amin), with or without `self`'s own values; backward as PyTorch's
`scatter_reduce_backward`, written with engine ops so it can be differentiated again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, _wrap_dim, make
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


def _backward(
    grad: Any, x: Any, d: int, index: Any, src: Any, red: str, include_self: bool, result: Any
) -> tuple[Any, Any]:
    """PyTorch's scatter_reduce_backward (FunctionsManual.cpp), op for op."""
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


def _const(a: np.ndarray[Any, Any]) -> Any:
    return make(a, False, None, 0)


OPS = [
    Op("scatter_reduce", scatter_reduce, inplace=True, out=True),
]
