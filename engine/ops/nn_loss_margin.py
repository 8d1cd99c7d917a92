"""Margin losses PyTorch records as one node: soft margin, multi-class margin (`multi_margin`)
and multi-label margin.

The margin losses are piecewise linear in the input (p=1), so their gradients are constants
times the upstream gradient; soft margin's is written with engine ops (second derivatives).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_loss import REDUCTION, _reduce
from engine.ops.nn_ops import Array, const

_RED = REDUCTION


def _check_reduction(reduction: str) -> None:
    if reduction not in _RED:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _mean_scale(node: OpNode, g: Tensor, n: int) -> Tensor:
    """The upstream gradient, divided by the element count for 'mean'."""
    return g / n if node.saved("reduction") == 1 else g


# -- soft margin -------------------------------------------------------------------------
def soft_margin_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """log(1 + exp(-target * input))."""
    _check_reduction(reduction)
    if STATE.enabled and target._rg:  # PyTorch's formula has no target derivative
        raise RuntimeError(
            "The function 'soft_margin_loss' is not differentiable with respect to argument "
            "'target'. This input cannot have requires_grad True."
        )
    x, t = self._d, target._d
    out = np.logaddexp(0, -t * x).astype(x.dtype)
    saved = {"self": self, "target": target, "reduction": _RED[reduction]}
    return record(SoftMarginLossBackward0, _reduce(out, reduction), (self,), saved)


class SoftMarginLossBackward0(OpNode):
    __slots__ = ()
    _name = "SoftMarginLossBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x: Any = self.saved("self")
        t: Any = self.saved("target")

        def grad_of(gg: Tensor, a: Tensor) -> Tensor:
            out: Tensor = -t * (-t * a).sigmoid() * _mean_scale(self, gg, a._d.size)
            return out

        if STATE.enabled and (g._rg or x._rg):
            # create_graph: one node over (grad_output, self), as PyTorch's
            from engine.ops.composed_grad import named_grad

            saved = {"grad_output": g, "self": x, "target": t}
            saved["reduction"] = self.saved("reduction")
            return [named_grad("SoftMarginLossBackwardBackward0", grad_of, (g, x), saved)]
        return [grad_of(g, x)]


# -- multi margin ------------------------------------------------------------------------
def _rows(x: Array, t: Array) -> tuple[Array, Array]:
    return x.reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1), t.reshape(-1)


def _margin_terms(x: Array, t: Array, p: int, margin: float, w: Array | None) -> Array:
    """Per-class terms max(0, margin - x[t] + x[j])^p (times w[t]), zero at j == t."""
    n = x.shape[0]
    xt = x[np.arange(n), t][:, None]
    z = margin - xt + x
    h = np.where(z > 0, z if p == 1 else z * z, 0)
    h[np.arange(n), t] = 0
    if w is not None:
        h = h * w[t][:, None]
    return np.asarray(h)


def multi_margin_loss(
    self: Tensor,
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Multi-class hinge loss: sum over j != y of max(0, margin - x[y] + x[j])^p / C."""
    _check_reduction(reduction)
    x, t = _rows(self._d, target._d)
    c = x.shape[1]
    if x.shape[0] != t.shape[0]:
        raise RuntimeError(
            f"inconsistent target size, expected {x.shape[0]} but got {list(target.shape)}"
        )
    if np.any((t < 0) | (t >= c)):
        raise RuntimeError("target out of range")
    w = None if weight is None else weight._d
    per = (_margin_terms(x, t, p, margin, w).sum(1) / c).astype(self._d.dtype)
    if self._d.ndim <= 1:
        per = per.reshape(())
    saved = {
        "self": self,
        "target": target,
        "p": p,
        "margin": margin,
        "weight": weight,
        "reduction": _RED[reduction],
    }
    return record(MultiMarginLossBackward0, _reduce(per, reduction), (self,), saved)


class MultiMarginLossBackward0(OpNode):
    __slots__ = ()
    _name = "MultiMarginLossBackward0"
    _tensors = frozenset(("weight",))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xs: Any = self.saved("self")
        x, t = _rows(xs._d, self.saved("target")._d)
        p, margin = self.saved("p"), self.saved("margin")
        wt = self.saved("weight")
        w = None if wt is None else wt._d
        n, c = x.shape
        xt = x[np.arange(n), t][:, None]
        z = margin - xt + x
        d = np.where(z > 0, 1.0 if p == 1 else 2 * z, 0.0)
        d[np.arange(n), t] = 0
        if w is not None:
            d = d * w[t][:, None]
        d[np.arange(n), t] = -d.sum(1)
        d = (d / c).astype(x.dtype).reshape(xs._d.shape)
        gg: Any = _mean_scale(self, g, n)
        if gg._d.ndim == 1:  # reduction='none' over a batch: one gradient per row
            gg = gg.unsqueeze(-1)
        return [const(d) * gg]


# -- multi-label margin ------------------------------------------------------------------
def _is_target(t: Array, c: int) -> Array:
    """1 where class j is among the row's targets (the targets stop at the first -1)."""
    mark = np.zeros((t.shape[0], c))
    for i, row in enumerate(t):
        for y in row:
            if y < 0:
                break
            mark[i, y] = 1
    return mark


def multilabel_margin_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """sum over targets y and non-targets j of max(0, 1 - (x[y] - x[j])) / C."""
    _check_reduction(reduction)
    x = self._d.reshape(-1, self._d.shape[-1]) if self._d.ndim else self._d.reshape(1, 1)
    t = target._d.reshape(x.shape)
    if target._d.shape != self._d.shape:
        raise RuntimeError(
            f"inconsistent target size: {list(target.shape)} for input of size: {list(self.shape)}"
        )
    c = x.shape[1]
    mark = _is_target(t, c)
    per: Array = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        for y in _targets(t[i]):
            z = 1 - x[i, y] + x[i]
            per[i] += np.sum(np.where((mark[i] == 0) & (z > 0), z, 0))
    per = (per / c).astype(self._d.dtype)
    if self._d.ndim <= 1:
        per = per.reshape(())
    saved = {
        "self": self,
        "target": target,
        "is_target": const(mark.reshape(self._d.shape).astype(self._d.dtype)),
        "reduction": _RED[reduction],
    }
    return record(MultilabelMarginLossBackward0, _reduce(per, reduction), (self,), saved)


def _targets(row: Array) -> list[int]:
    out = []
    for y in row:
        if y < 0:
            break
        out.append(int(y))
    return out


class MultilabelMarginLossBackward0(OpNode):
    __slots__ = ()
    _name = "MultilabelMarginLossBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xs: Any = self.saved("self")
        x = xs._d.reshape(-1, xs._d.shape[-1]) if xs._d.ndim else xs._d.reshape(1, 1)
        t = self.saved("target")._d.reshape(x.shape)
        mark = self.saved("is_target")._d.reshape(x.shape)
        n, c = x.shape
        d = np.zeros(x.shape)
        for i in range(n):
            for y in _targets(t[i]):
                hit = (mark[i] == 0) & (1 - x[i, y] + x[i] > 0)
                d[i] += hit
                d[i, y] -= hit.sum()
        d = (d / c).astype(x.dtype).reshape(xs._d.shape)
        gg: Any = _mean_scale(self, g, n)
        if gg._d.ndim == 1:
            gg = gg.unsqueeze(-1)
        return [const(d) * gg]
