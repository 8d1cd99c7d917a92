"""`torch._weight_norm` (one `WeightNormInterfaceBackward0` node) and `norm_except_dim`.

w = v * g / ||v||, the norm taken over every dim but `dim` (all dims when dim == -1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.table import Op


def _axes(ndim: int, dim: int) -> tuple[int, ...]:
    return tuple(range(ndim)) if dim == -1 else tuple(i for i in range(ndim) if i != dim % ndim)


def _norms(v: np.ndarray[Any, Any], dim: int) -> Any:
    n = np.sqrt(np.sum(v.astype(np.float64) ** 2, axis=_axes(v.ndim, dim), keepdims=dim != -1))
    return np.asarray(n, v.dtype)


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The `pow`-norm of `v` over all dims but `dim`, keeping them as size 1 (as ATen does)."""
    from engine.ops.reduce_stats import norm_overload

    x: Any = v
    nd = v._d.ndim
    if dim == -1:
        return norm_overload(v, pow)
    shape = [1] * nd
    if dim == 0:
        shape[0] = v._d.shape[0]
        flat = x.contiguous().view(v._d.shape[0], -1)
        return norm_overload(flat, pow, 1).view(shape)
    if dim == nd - 1:
        shape[-1] = v._d.shape[-1]
        flat = x.contiguous().view(-1, v._d.shape[-1])
        return norm_overload(flat, pow, 0).view(shape)
    return norm_except_dim(x.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """v * (g / ||v||): one node when dim is the first or last dim (ATen's fused CPU kernel)."""
    if dim not in (0, v._d.ndim - 1):
        return v * (g / norm_except_dim(v, 2, dim))
    n = _norms(v._d, dim)
    out = (v._d * (g._d / n)).astype(v._d.dtype)
    # PyTorch also saves the norms (`result1`, a second output without gradient)
    saved = {"v": v, "g": g, "dim": dim, "result1": make(n, False, None, 0)}
    return record(WeightNormInterfaceBackward0, out, (v, g), saved)


class WeightNormInterfaceBackward0(OpNode):
    __slots__ = ()
    _name = "WeightNormInterfaceBackward0"

    def apply(self, grads: Grads) -> Grads:
        gw: Any = grads[0]
        v: Any = self.saved("v")
        g: Any = self.saved("g")
        dim = self.saved("dim")
        axes = _axes(v._d.ndim, dim)
        # the saved norms are a constant here, as in PyTorch's differentiable backward
        norm = self.saved("result1")
        dot = (gw * v).sum(axes, True)
        gv = (g / norm) * (gw - v * (dot / (norm * norm))) if self.needs(0) else None
        gg = dot / norm if self.needs(1) else None
        return [gv, gg]


OPS = [
    Op("_weight_norm", _weight_norm, method=False),
    Op("norm_except_dim", norm_except_dim, method=False),
]
