"""`renorm`: each slice along `dim` whose p-norm exceeds `maxnorm` is scaled down to it
(PyTorch's RenormBackward0, whose gradient is its renorm_backward formula)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine._tensor import Tensor, _wrap_dim
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.table import Op


def _norms(a: np.ndarray[Any, Any], p: float, dims: tuple[int, ...]) -> np.ndarray[Any, Any]:
    x = np.abs(a)
    if math.isinf(p):
        return np.max(x, axis=dims, keepdims=True) if x.size else np.zeros_like(x)
    if p == 1:
        return np.sum(x, axis=dims, keepdims=True)  # type: ignore[no-any-return]
    if p == 2:
        return np.sqrt(np.sum(x * x, axis=dims, keepdims=True))  # type: ignore[no-any-return]
    return np.sum(x**p, axis=dims, keepdims=True) ** (1.0 / p)  # type: ignore[no-any-return]


def renorm(self: Tensor, p: Any, dim: int, maxnorm: Any) -> Tensor:
    """A copy where every sub-tensor along `dim` has p-norm at most `maxnorm`."""
    a = self._d
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if a.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {a.ndim} dimensions")
    d = _wrap_dim(dim, a.ndim)
    dims = tuple(i for i in range(a.ndim) if i != d)
    norm = _norms(a, float(p), dims)
    factor = np.where(norm > maxnorm, a.dtype.type(maxnorm) / (norm + a.dtype.type(1e-7)), 1)
    out = (a * factor.astype(a.dtype)).astype(a.dtype, copy=False)
    saved = {"dim": dim, "maxnorm": maxnorm, "p": p, "self": self}
    return record(RenormBackward0, out, (self,), saved)


class RenormBackward0(OpNode):
    __slots__ = ()
    _name = "RenormBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x: Any = self.saved("self")
        p, maxnorm = float(self.saved("p")), self.saved("maxnorm")
        d = _wrap_dim(self.saved("dim"), x.dim())
        dims = [i for i in range(x.dim()) if i != d]
        norm = x.norm(p, dims, keepdim=True) if not math.isinf(p) else x.abs().amax(dims, True)
        dot = (x * g).sum(dims, keepdim=True)
        if math.isinf(p):
            mask = (x.abs() == norm).to(x.dtype)
            dnorm = x.sgn() * mask / mask.sum(dims, keepdim=True)
        elif p == 1:
            dnorm = x.sgn()
        elif p == 2:
            dnorm = x / norm
        else:
            dnorm = x.sgn() * x.abs().pow(p - 1) / norm.pow(p - 1)
        invnorm = (norm + 1e-7).reciprocal()
        factor = invnorm * maxnorm
        return [(factor * g - factor * invnorm * dot * dnorm).where(norm > maxnorm, g)]


OPS = [
    Op("renorm", renorm, inplace=True, out=True),
]
