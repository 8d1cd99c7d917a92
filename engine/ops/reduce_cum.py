"""Cumulative ops: cumsum and cumprod (exact gradients with zeros, as PyTorch)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, opmath, record
from engine.ops.reduce import ALL, axes_of, shown, wrap_dim
from engine.ops.softmax import need_dim
from engine.ops.table import Op


def _const(a: Any, like: Tensor) -> Tensor:
    return make(np.asarray(a, like._d.dtype), False, None, 0)


# -- cumulative --------------------------------------------------------------------------
def cumsum(self: Tensor, dim: Any = ALL, *, dtype: Any = None) -> Tensor:
    """Running sum along `dim`."""
    need_dim("cumsum", dim)
    a = self._d
    if dtype is not None:
        a = a.astype(dtype.np, copy=False)
    elif _dtype.kind(a.dtype) in "biu":
        a = a.astype(np.int64)
    d = wrap_dim(int(dim), a.ndim)
    out = a.copy() if a.ndim == 0 else opmath(lambda x: np.cumsum(x, axis=d), a)
    return record(CumsumBackward0, out, (self,), {"dim": shown(int(dim))})


def _rev_cumsum(g: Tensor, d: int) -> Tensor:
    if g._d.ndim == 0:
        return g
    if not STATE.enabled:
        return make(np.flip(np.cumsum(np.flip(g._d, d), axis=d), d), False, None, 0)
    from engine.ops.tensor_shape import flip

    return flip(cumsum(flip(g, [d]), d), [d])


class CumsumBackward0(OpNode):
    __slots__ = ()
    _name = "CumsumBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [_rev_cumsum(g, axes_of(self.saved("dim"), g._d.ndim)[0] if g._d.ndim else 0)]


def cumprod(self: Tensor, dim: Any = ALL, *, dtype: Any = None) -> Tensor:
    """Running product along `dim`."""
    need_dim("cumprod", dim)
    a = self._d
    if dtype is not None:
        a = a.astype(dtype.np, copy=False)
    elif _dtype.kind(a.dtype) in "biu":
        a = a.astype(np.int64)
    d = wrap_dim(int(dim), a.ndim)
    out = a.copy() if a.ndim == 0 else np.cumprod(a, axis=d)
    saved = {"dim": shown(int(dim)), "self": self}
    return record(CumprodBackward0, out, (self,), saved, out_saved="result")


class CumprodBackward0(OpNode):
    __slots__ = ()
    _name = "CumprodBackward0"

    def apply(self, grads: Grads) -> Grads:
        g, x, r = grads[0], self.saved("self"), self.saved("result")
        assert g is not None
        if x._d.ndim == 0:
            return [g]
        d = axes_of(self.saved("dim"), x._d.ndim)[0]
        if not (x._d == 0).any():
            return [_rev_cumsum(g * r, d) / x]
        if STATE.enabled:
            return [_cumprod_zeros_graph(g, x, d)]
        # with zeros: d out_j / d x_k = prod_{i<=j, i!=k} x_i
        xm, gm = np.moveaxis(x._d, d, -1), np.moveaxis(g._d, d, -1)
        n = xm.shape[-1]
        out = np.zeros_like(xm)
        for k in range(n):
            others = xm.copy()
            others[..., k] = 1
            out[..., k] = (gm[..., k:] * np.cumprod(others, -1)[..., k:]).sum(-1)
        return [make(np.moveaxis(out, -1, d), False, None, 0)]


def _cumprod_zeros_graph(g: Tensor, x: Tensor, d: int) -> Tensor:
    """The zeros case with engine ops (create_graph): row k of an (n, n) stack is `x` with
    element k replaced by 1; its running products, masked to j >= k and weighted by g_j,
    summed over j give the gradient of x_k."""
    from engine.ops.pointwise import where
    from engine.ops.reduce import sum as _sum
    from engine.ops.shape import unsqueeze

    n = x._d.shape[d]
    tail = (1,) * (x._d.ndim - d - 1)
    eye = np.eye(n, dtype=bool).reshape((n, n, *tail))
    upper = np.triu(np.ones((n, n))).reshape((n, n, *tail))  # [k, j]: j >= k
    stack = where(make(eye, False, None, 0), 1.0, unsqueeze(x, d))
    runs: Any = cumprod(stack, d + 1)
    runs = runs * _const(upper, g)
    return _sum(runs * unsqueeze(g, d), d + 1)


def _cumext(is_max: bool, self: Tensor, dim: Any) -> Any:
    from engine import return_types

    a = self._d
    d = wrap_dim(int(dim), a.ndim)
    if a.ndim == 0 or a.size == 0:
        vals, idx = a.copy(), np.zeros(a.shape, np.int64)
    else:
        m = np.moveaxis(a, d, -1)
        vals_m = np.empty_like(m)
        idx_m = np.zeros(m.shape, np.int64)
        cur, at = m[..., 0], np.zeros(m.shape[:-1], np.int64)
        for k in range(m.shape[-1]):
            x = m[..., k]
            # PyTorch moves to a later equal value, and a NaN always takes over
            take = ((x >= cur) if is_max else (x <= cur)) | (
                np.isnan(x) if _dtype.kind(a.dtype) == "f" else False
            )
            cur, at = np.where(take, x, cur), np.where(take, k, at)
            vals_m[..., k], idx_m[..., k] = cur, at
        vals, idx = np.moveaxis(vals_m, -1, d), np.moveaxis(idx_m, -1, d)
    it = make(np.asarray(idx, order="C"), False, None, 0)
    saved = {"dim": shown(int(dim)), "indices": it, "self": self}
    node = CummaxBackward0 if is_max else CumminBackward0
    v = record(node, np.asarray(vals, order="C"), (self,), saved)
    return (return_types.cummax if is_max else return_types.cummin)((v, it))


def cummax(self: Tensor, dim: int) -> Any:
    """Running maximum along `dim`, with the index where each was reached."""
    return _cumext(True, self, dim)


def cummin(self: Tensor, dim: int) -> Any:
    """Running minimum along `dim`, with the index where each was reached."""
    return _cumext(False, self, dim)


class CummaxBackward0(OpNode):
    __slots__ = ()
    _name = "CummaxBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.scatter import scatter_add

        g = grads[0]
        assert g is not None
        x = self.saved("self")
        if x._d.ndim == 0:
            return [g]
        d = axes_of(self.saved("dim"), x._d.ndim)[0]
        zeros = make(np.zeros(x._d.shape, g._d.dtype), False, None, 0)
        return [scatter_add(zeros, d, self.saved("indices"), g)]


class CumminBackward0(CummaxBackward0):
    __slots__ = ()
    _name = "CumminBackward0"


def logcumsumexp(self: Tensor, dim: Any = ALL) -> Tensor:
    """log(cumsum(exp(x))) along `dim`, computed stably."""
    need_dim("logcumsumexp", dim)
    a = self._d
    if _dtype.kind(a.dtype) != "f":
        a = a.astype(np.float32)
    d = wrap_dim(int(dim), a.ndim)
    out = a.copy() if a.ndim == 0 else np.logaddexp.accumulate(a, axis=d)
    saved = {"dim": shown(int(dim)), "self": self}
    return record(LogcumsumexpBackward0, out, (self,), saved, out_saved="result")


class LogcumsumexpBackward0(OpNode):
    """PyTorch's formula: positive and negative parts of the gradient in log space."""

    __slots__ = ()
    _name = "LogcumsumexpBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.pointwise import where
        from engine.ops.tensor_shape import flip

        g: Any = grads[0]
        x: Any = self.saved("self")
        r: Any = self.saved("result")
        if x._d.ndim == 0:
            return [g]
        d = axes_of(self.saved("dim"), x._d.ndim)[0]

        def rev(t: Any) -> Any:
            return flip(logcumsumexp(flip(t, [d]), d), [d])

        lowest = float(np.finfo(g._d.dtype).min)
        log_abs = g.abs().log()
        pos = where(g > 0, log_abs, lowest)
        neg = where(g < 0, log_abs, lowest)
        return [(rev(pos - r) + x).exp() - (rev(neg - r) + x).exp()]


OPS = [
    Op("cumsum", cumsum, inplace=True, out=True),
    Op("cumprod", cumprod, out=True, inplace=True),
    Op("cummax", cummax, out=True),
    Op("cummin", cummin, out=True),
    Op("logcumsumexp", logcumsumexp, out=True),
]
