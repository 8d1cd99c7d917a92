"""Maps onto matrices: LowerCholeskyTransform (strict lower triangle kept, diagonal
exponentiated), PositiveDefiniteTransform (that factor times its transpose) and
CorrCholeskyTransform (a vector onto the Cholesky factor of a correlation matrix).

>>> LowerCholeskyTransform()(torch.zeros(2, 2))
tensor([[1., 0.],
        [0., 1.]])
"""

from __future__ import annotations

import math
from typing import Any

import engine as _engine
from engine.distributions import constraints
from engine.distributions.transforms.base import Transform
from engine.distributions.utils import tril_matrix_to_vec, vec_to_tril_matrix

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class LowerCholeskyTransform(Transform):
    """x -> tril(x, -1) + diag(exp(diag(x))), a lower Cholesky factor (no log|det J|)."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LowerCholeskyTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y: Any) -> Any:
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(Transform):
    """x -> L L^T with L = LowerCholeskyTransform()(x) (no log|det J|)."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PositiveDefiniteTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        x = LowerCholeskyTransform()(x)
        return x @ x.mT

    def _inverse(self, y: Any) -> Any:
        y = torch.linalg.cholesky(y)
        return LowerCholeskyTransform().inv(y)


class CorrCholeskyTransform(Transform):
    """R^(D(D-1)/2) onto the Cholesky factors of D x D correlation matrices: the vector fills
    the strict lower triangle row by row, each row goes through tanh and a signed stick
    breaking of its squares so it has unit length, with a positive diagonal.

    The log|det J| is that of the map onto the flattened strict lower triangle."""

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x: Any) -> Any:
        x = torch.tanh(x)
        eps = torch.finfo(x.dtype).eps
        x = x.clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(x, diag=-1)
        # stick breaking of the squares: y = sign(r) sqrt(z z1m_cumprod) = r sqrt(z1m_cumprod)
        z = r**2
        z1m_cumprod_sqrt = (1 - z).sqrt().cumprod(-1)
        r = r + torch.eye(r.shape[-1], dtype=r.dtype)  # the diagonal before scaling is 1
        pad = torch.nn.functional.pad
        return r * pad(z1m_cumprod_sqrt[..., :-1], [1, 0], value=1)

    def _inverse(self, y: Any) -> Any:
        pad = torch.nn.functional.pad
        y_cumsum = 1 - torch.cumsum(y * y, dim=-1)
        y_cumsum_shifted = pad(y_cumsum[..., :-1], [1, 0], value=1)
        y_vec = tril_matrix_to_vec(y, diag=-1)
        y_cumsum_vec = tril_matrix_to_vec(y_cumsum_shifted, diag=-1)
        t = y_vec / y_cumsum_vec.sqrt()
        return (t.log1p() - t.neg().log1p()) / 2  # atanh

    def log_abs_det_jacobian(self, x: Any, y: Any, intermediates: Any = None) -> Any:
        y1m_cumsum = 1 - (y * y).cumsum(dim=-1)
        # diagonal -2 reads the cumulative products already shifted right by one
        y1m_cumsum_tril = tril_matrix_to_vec(y1m_cumsum, diag=-2)
        stick_breaking_logdet = 0.5 * y1m_cumsum_tril.log().sum(-1)
        softplus = torch.nn.functional.softplus
        tanh_logdet = -2 * (x + softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape: Any) -> Any:
        """(..., N) -> (..., D, D) with N = D(D-1)/2."""
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return shape[:-1] + (d, d)  # noqa: RUF005 (a Size stays a Size)

    def inverse_shape(self, shape: Any) -> Any:
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return shape[:-2] + (d * (d - 1) // 2,)  # noqa: RUF005 (a Size stays a Size)
