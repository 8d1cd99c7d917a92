"""`trapezoid`, `cumulative_trapezoid` (composed as ATen composes them), `cdist` (one
`CdistBackward0` node, whose own backward PyTorch does not differentiate) and `dist`.

The scalar factors are C++ scalar ops in ATen (MulBackward1/DivBackward1, one edge)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops import autocast as _autocast
from engine.ops._core import OpNode, record, unbroadcast
from engine.ops.scalar_overloads import div_scalar, mul_scalar
from engine.ops.table import Op


def _ends(y: Any, dim: int) -> tuple[Any, Any]:
    n = y.shape[dim]
    return y.narrow(dim, 1, n - 1), y.narrow(dim, 0, n - 1)


def trapezoid(y: Tensor, x: Any = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """The trapezoidal rule along `dim` (spacing `dx`, or sample points `x`)."""
    t = _floating(y)
    if x is not None and isinstance(x, Tensor):
        d = x.diff(dim=dim) if x.dim() == t.dim() else x.diff()
        hi, lo = _ends(t, dim)
        return div_scalar(((hi + lo) * d).sum(dim), 2.0)
    step = 1 if dx is None and x is None else (x if x is not None else dx)
    if t.shape[dim] == 0:
        return t.sum(dim) * 0
    ends = t.select(dim, 0) + t.select(dim, -1)
    return mul_scalar(t.sum(dim) - mul_scalar(ends, 0.5), step)


def _floating(y: Tensor) -> Tensor:
    """Integer samples integrate to the default float dtype (ATen's `* 0.5` promotes them)."""
    from engine import _dtype

    if y._d.dtype == np.bool_:
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported")
    if _dtype.kind(y._d.dtype) in "iu":
        return y.to(_dtype.get_default_dtype())
    return y


def cumulative_trapezoid(y: Tensor, x: Any = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """Running trapezoidal integrals along `dim`."""
    t = y
    hi, lo = _ends(t, dim)
    if x is not None and isinstance(x, Tensor):
        d = x.diff(dim=dim) if x.dim() == t.dim() else x.diff()
        return div_scalar(((hi + lo) * d).cumsum(dim), 2.0)
    step = 1 if dx is None and x is None else (x if x is not None else dx)
    return mul_scalar(hi + lo, step / 2.0).cumsum(dim)


def trapz(y: Tensor, x: Any = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """`torch.trapz`: the older name of `trapezoid`."""
    return trapezoid(y, x, dx=dx, dim=dim)


def _pdist(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], p: float) -> Any:
    diff = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        return (diff != 0).sum(-1).astype(a.dtype)
    if math.isinf(p):
        return diff.max(-1)
    return (diff**p).sum(-1) ** (1.0 / p)


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: Any = None) -> Tensor:
    """Pairwise p-norm distances between the rows of `x1` and `x2` (batched)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        x1, x2 = _autocast.fp32(x1, x2)
    a, b = x1._d, x2._d
    if a.ndim < 2 or b.ndim < 2:
        raise RuntimeError(
            f"cdist only supports at least 2D tensors, X1 got: {a.ndim}D"
            if a.ndim < 2
            else f"cdist only supports at least 2D tensors, X2 got: {b.ndim}D"
        )
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {a.shape[-1]} X2: {b.shape[-1]}"
        )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    out = np.asarray(_pdist(a, b, p), a.dtype)
    saved = {"x1": x1, "x2": x2, "p": p}
    return record(CdistBackward0, out, (x1, x2), saved, "result")


class CdistBackward0(OpNode):
    __slots__ = ()
    _name = "CdistBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x1, x2, r = self.saved("x1"), self.saved("x2"), self.saved("result")
        p = float(self.saved("p"))
        a, b, rd, gd = x1._d, x2._d, r._d, g._d
        diff = a[..., :, None, :] - b[..., None, :, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            if p == 0:
                w = np.zeros_like(diff)
            elif p == 1:
                w = np.sign(diff)
            elif math.isinf(p):
                ad = np.abs(diff)
                w = np.sign(diff) * (ad == rd[..., None])
            else:
                w = np.sign(diff) * np.abs(diff) ** (p - 1) / rd[..., None] ** (p - 1)
            w = np.where(rd[..., None] == 0, 0.0, w) if p not in (0, 1) else w
        contrib = (gd[..., None] * w).astype(a.dtype)
        ga = contrib.sum(-2) if self.needs(0) else None
        gb = -contrib.sum(-3) if self.needs(1) else None
        if STATE.enabled and (g._rg or x1._rg or x2._rg):
            # create_graph: PyTorch defines no derivative for _cdist_backward
            raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")
        return [
            None if ga is None else make(ga, False, None, 0),
            None if gb is None else make(gb, False, None, 0),
        ]


def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """`torch.dist`: the p-norm of `input - other` (broadcast), one DistBackward0 node."""
    from engine.ops._core import binary_arrays, bshapes

    a, b, _, rt = binary_arrays(input, other)
    diff = np.asarray(a - b)
    pf = float(p)
    if pf == 0:
        r = (diff != 0).sum()
    elif math.isinf(pf):
        r = np.abs(diff).max() if pf > 0 else np.abs(diff).min()
    else:
        r = (np.abs(diff.astype(np.float64)) ** pf).sum() ** (1 / pf)
    out = np.asarray(r, rt)
    saved = {"self": input, "other": other, "p": p}
    shapes = bshapes(input, other, diff)
    return record(DistBackward0, out, (input, other), saved, "result", shapes=shapes)


class DistBackward0(OpNode):
    __slots__ = ()
    _name = "DistBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops._core import in_shape
        from engine.ops.reduce_stats import _norm_grad

        g: Any = grads[0]
        x = self.saved("self")
        y = self.saved("other")
        p = float(self.saved("p"))
        diff = x - y
        if p == 0:
            gd = diff * 0
        else:
            gd = _norm_grad(diff, g, self.saved("result"), p, tuple(range(diff._d.ndim)))
        gx = unbroadcast(gd, in_shape(self, 0, gd)) if self.needs(0) else None
        gy = unbroadcast(-gd, in_shape(self, 1, gd)) if self.needs(1) else None
        return [gx, gy]


OPS = [
    Op("dist", dist),
    Op("trapezoid", trapezoid, method=False),
    Op("trapz", trapz, method=False),
    Op("cumulative_trapezoid", cumulative_trapezoid, method=False),
    Op("cdist", cdist, method=False),
]
