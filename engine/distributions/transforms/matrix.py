"""Maps from unconstrained square matrices: LowerCholeskyTransform (strict lower triangle kept,
diagonal exponentiated) and PositiveDefiniteTransform (that factor times its transpose).

>>> LowerCholeskyTransform()(torch.zeros(2, 2))
tensor([[1., 0.],
        [0., 1.]])
"""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine.distributions import constraints
from engine.distributions.transforms.base import Transform

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
