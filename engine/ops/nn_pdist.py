"""`torch.pdist`: p-norm distances between all pairs of rows (i < j), one PdistBackward0 node.

Its gradient follows ATen's `_pdist_backward` per pair, including the special cases p = 0, 1,
2, inf; PyTorch cannot differentiate that backward again, and neither can the engine.
"""

from __future__ import annotations

import math

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import Array
from engine.ops.table import Op


def _pairs(n: int) -> tuple[Array, Array]:
    i, j = np.triu_indices(n, 1)
    return i, j


def _norms(diff: Array, p: float) -> Array:
    a = np.abs(diff)
    if p == 0:
        out = (a != 0).sum(-1)
    elif p == math.inf:
        out = a.max(-1, initial=0)
    elif p == 1:
        out = a.sum(-1)
    elif p == 2:
        out = np.sqrt((a * a).sum(-1))
    else:
        out = np.power(np.power(a, p).sum(-1), 1 / p)
    return np.asarray(out).astype(diff.dtype)


def pdist(x: Tensor, p: float = 2.0) -> Tensor:
    """The condensed distance vector of the rows of a 2-d x."""
    d = x._d
    if d.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {d.ndim}D")
    if _dtype.kind(d.dtype) != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    i, j = _pairs(d.shape[0])
    out = _norms(d[i] - d[j], p)
    return record(PdistBackward0, out.astype(d.dtype), (x,), {"p": p, "self": x}, "result")


def _pair_grad(diff: Array, dist: Array, g: Array, p: float) -> Array:
    """d(dist)/d(x_i) * g for each pair (the x_j side is its negative)."""
    dist, g = dist[:, None], g[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 0:
            return np.zeros_like(diff)
        if p == 1:
            return np.sign(diff) * g
        if p == 2:
            return np.where(dist == 0, 0, diff * g / dist)
        if p == math.inf:
            return np.asarray(np.sign(diff) * (np.abs(diff) == dist) * g)
        if p < 2:
            v = np.sign(diff) * np.power(np.abs(diff), p - 1) * g / np.power(dist, p - 1)
            return np.where((dist == 0) | ((diff == 0) & (p < 1)), 0, v)
        v = diff * np.power(np.abs(diff), p - 2) * g / np.power(dist, p - 1)
        return np.where(dist == 0, 0, v)


class PdistBackward0(OpNode):
    __slots__ = ()
    _name = "PdistBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, p, r = self.saved("self"), self.saved("p"), self.saved("result")._d
        x = xt._d
        i, j = _pairs(x.shape[0])
        v = _pair_grad(x[i] - x[j], r, g._d, p).astype(x.dtype)
        gx = np.zeros_like(x)
        np.add.at(gx, i, v)
        np.add.at(gx, j, -v)
        if STATE.enabled and (g._rg or xt._rg):  # recorded, but PyTorch cannot differentiate it
            return [record(PdistBackwardBackward0, gx, (g, xt), {})]
        return [make(gx, False, None, 0)]


class PdistBackwardBackward0(OpNode):
    __slots__ = ()
    _name = "PdistBackwardBackward0"
    _listed = False  # recorded by PdistBackward0's backward, not by a forward op

    def apply(self, grads: Grads) -> Grads:
        raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


OPS = [
    Op("pdist", pdist, method=False),
]
