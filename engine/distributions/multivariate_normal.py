"""`MultivariateNormal`, parametrised by a covariance, precision or lower Cholesky factor;
everything runs through the Cholesky factor L (rsample: loc + L eps)."""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions.distribution import Distribution

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class RealVector:
    """`constraints.real_vector`: no NaN in the last dimension."""

    def check(self, v: Tensor) -> Tensor:
        return torch.eq(v, v).all(-1)

    def __repr__(self) -> str:
        return "IndependentConstraint(Real(), 1)"


class PositiveDefinite:
    """`constraints.positive_definite`: symmetric, and its Cholesky factorisation succeeds."""

    def check(self, v: Tensor) -> Tensor:
        symmetric = torch.isclose(v, v.mT, atol=1e-6).all(-2).all(-1)
        if not bool(symmetric.all()):
            return symmetric
        ok: Tensor = torch.linalg.cholesky_ex(v).info.eq(0)
        return ok

    def __repr__(self) -> str:
        return "PositiveDefinite()"


class LowerCholesky:
    """`constraints.lower_cholesky`: lower triangular with a positive diagonal."""

    def check(self, v: Tensor) -> Tensor:
        lower: Tensor = (v.tril() == v).view(*v.shape[:-2], -1).min(-1)[0]
        positive = (v.diagonal(dim1=-2, dim2=-1) > 0).min(-1)[0]
        both: Tensor = lower & positive
        return both

    def __repr__(self) -> str:
        return "LowerCholesky()"


def _batch_mv(bmat: Tensor, bvec: Tensor) -> Tensor:
    return torch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _mahalanobis(L: Tensor, x: Tensor) -> Tensor:
    """x^T (L L^T)^{-1} x, L broadcast over x's leading dims."""
    n = x.size(-1)
    flat_l = L.reshape(-1, n, n)
    lead = x.shape[: x.dim() - 1 - (L.dim() - 2)]
    flat_x = x.reshape(-1, flat_l.size(0), n)  # (c, b, n)
    m = torch.linalg.solve_triangular(flat_l, flat_x.permute(1, 2, 0), upper=False)
    out: Tensor = m.pow(2).sum(-2).t().reshape(*lead, *L.shape[:-2])
    return out.reshape(x.shape[:-1])


def _precision_to_scale_tril(P: Tensor) -> Tensor:
    Lf = torch.linalg.cholesky(torch.flip(P, (-2, -1)))
    L_inv = torch.transpose(torch.flip(Lf, (-2, -1)), -2, -1)
    Id = torch.eye(P.shape[-1], dtype=P.dtype)
    L: Tensor = torch.linalg.solve_triangular(L_inv, Id, upper=False)
    return L


class MultivariateNormal(Distribution):
    """N(loc, L L^T) with exactly one of covariance_matrix, precision_matrix, scale_tril."""

    arg_constraints = {
        "loc": RealVector(),
        "covariance_matrix": PositiveDefinite(),
        "precision_matrix": PositiveDefinite(),
        "scale_tril": LowerCholesky(),
    }
    has_rsample = True

    def __init__(
        self,
        loc: Tensor,
        covariance_matrix: Tensor | None = None,
        precision_matrix: Tensor | None = None,
        scale_tril: Tensor | None = None,
        validate_args: Any = None,
    ) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [m for m in (covariance_matrix, precision_matrix, scale_tril) if m is not None]
        if len(given) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        name = (
            "scale_tril"
            if scale_tril is not None
            else "covariance_matrix"
            if covariance_matrix is not None
            else "precision_matrix"
        )
        mat = given[0]
        if mat.dim() < 2:
            what = "scale_tril matrix" if name == "scale_tril" else name
            raise ValueError(
                f"{what} must be at least two-dimensional, with optional leading batch dimensions"
            )
        batch_shape = torch.broadcast_shapes(mat.shape[:-2], loc.shape[:-1])
        self.__dict__[name] = mat.expand(*batch_shape, -1, -1)
        self.loc = loc.expand(*batch_shape, -1)
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            assert precision_matrix is not None
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def _matrix_shape(self) -> Size:
        return Size(tuple(self._batch_shape) + tuple(self._event_shape) + tuple(self._event_shape))

    @cached_property
    def scale_tril(self) -> Tensor:
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @cached_property
    def covariance_matrix(self) -> Tensor:
        L = self._unbroadcasted_scale_tril
        return torch.matmul(L, L.mT).expand(self._matrix_shape())

    @cached_property
    def precision_matrix(self) -> Tensor:
        L = self._unbroadcasted_scale_tril
        return torch.linalg.inv(torch.matmul(L, L.mT)).expand(self._matrix_shape())

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        shape = tuple(self._batch_shape) + tuple(self._event_shape)
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = torch.empty(shape, dtype=self.loc.dtype).normal_()
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def log_prob(self, value: Tensor) -> Tensor:
        diff = value - self.loc
        M = _mahalanobis(self._unbroadcasted_scale_tril, diff)
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        lp: Tensor = -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - half_log_det
        return lp

    def entropy(self) -> Tensor:
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        H: Tensor = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)
