"""Matrix constraints: lower-triangular, lower Cholesky factors (of covariance and of
correlation matrices), square, symmetric, positive (semi)definite."""

from __future__ import annotations

import engine as _engine
from engine._tensor import Tensor
from engine.distributions.constraints.base import Constraint

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        out: Tensor = (value.tril() == value).view(*value.shape[:-2], -1).min(-1)[0]
        return out


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        lower = (value.tril() == value).view(*value.shape[:-2], -1).min(-1)[0]
        out: Tensor = lower & (value.diagonal(dim1=-2, dim2=-1) > 0).min(-1)[0]
        return out


class _CorrCholesky(Constraint):
    """Lower Cholesky factors of correlation matrices: rows of unit length (to within
    10 * eps * n, PyTorch's fudge factor)."""

    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        tol = torch.finfo(value.dtype).eps * value.size(-1) * 10
        row_norm = torch.linalg.norm(value.detach(), dim=-1)
        unit_row_norm = (row_norm - 1.0).abs().le(tol).all(dim=-1)
        out: Tensor = _LowerCholesky().check(value) & unit_row_norm
        return out


class _Square(Constraint):
    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        same = value.shape[-2] == value.shape[-1]
        return torch.full(tuple(value.shape[:-2]), same, dtype=torch.bool)


class _Symmetric(_Square):
    def check(self, value: Tensor) -> Tensor:
        square = super().check(value)
        if not bool(square.all()):
            return square
        return torch.isclose(value, value.mT, atol=1e-6).all(-2).all(-1)


class _PositiveSemidefinite(_Symmetric):
    def check(self, value: Tensor) -> Tensor:
        sym = super().check(value)
        if not bool(sym.all()):
            return sym
        out: Tensor = torch.linalg.eigvalsh(value).ge(0).all(-1)
        return out


class _PositiveDefinite(_Symmetric):
    def check(self, value: Tensor) -> Tensor:
        sym = super().check(value)
        if not bool(sym.all()):
            return sym
        out: Tensor = torch.linalg.cholesky_ex(value).info.eq(0)
        return out
