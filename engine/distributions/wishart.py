"""`Wishart(df, covariance_matrix | precision_matrix | scale_tril)`: the distribution of
sum_i x_i x_i^T over df Gaussian draws x_i ~ N(0, Sigma), sampled by the Bartlett
decomposition (Chi2 diagonal, normal lower triangle) and scored through the Cholesky factor
of Sigma, as PyTorch does.

>>> Wishart(torch.tensor(3.0), covariance_matrix=torch.eye(2)).mean
tensor([[3., 0.],
        [0., 3.]])
"""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine._warn import warn
from engine.distributions import constraints
from engine.distributions.chi2 import Chi2
from engine.distributions.distribution import Distribution
from engine.distributions.exp_family import ExponentialFamily
from engine.distributions.multivariate_normal import _precision_to_scale_tril
from engine.distributions.utils import lazy_property

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)

_log_2 = math.log(2)
_MATRICES = ("covariance_matrix", "precision_matrix", "scale_tril")


def _mvdigamma(x: Tensor, p: int) -> Tensor:
    """The multivariate digamma: sum_j digamma(x - j / 2) over j < p."""
    if not x.gt((p - 1) / 2).all():
        raise AssertionError("Wrong domain for multivariate digamma function.")
    halves = torch.arange(p, dtype=x.dtype).div(2).expand((*x.shape, -1))
    return torch.digamma(x.unsqueeze(-1) - halves).sum(-1)


def _clamp_above_eps(x: Tensor) -> Tensor:
    return x.clamp(min=torch.finfo(x.dtype).eps)


class Wishart(ExponentialFamily):
    """Positive definite p x p matrices with df > p - 1 degrees of freedom."""

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self) -> dict[str, Any]:
        return {
            "covariance_matrix": constraints.positive_definite,
            "precision_matrix": constraints.positive_definite,
            "scale_tril": constraints.lower_cholesky,
            "df": constraints.greater_than(self.event_shape[-1] - 1),
        }

    def __init__(
        self,
        df: Any,
        covariance_matrix: Tensor | None = None,
        precision_matrix: Tensor | None = None,
        scale_tril: Tensor | None = None,
        validate_args: Any = None,
    ) -> None:
        given = {
            name: m
            for name, m in zip(_MATRICES, (covariance_matrix, precision_matrix, scale_tril))
            if m is not None
        }
        if len(given) != 1:
            raise AssertionError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        ((name, param),) = given.items()
        if param.dim() < 2:
            raise ValueError(
                "scale_tril must be at least two-dimensional, with optional leading batch "
                "dimensions"
            )
        if isinstance(df, Number):
            batch_shape = Size(param.shape[:-2])
            self.df = torch.tensor(df, dtype=param.dtype)
        else:
            batch_shape = torch.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        if self.df.le(event_shape[-1] - 1).any():
            raise ValueError(
                f"Value of df={df} expected to be greater than ndim - 1 = {event_shape[-1] - 1}."
            )
        self.__dict__[name] = param.expand(*batch_shape, -1, -1)
        if self.df.lt(event_shape[-1]).any():
            warn(
                "Low df values detected. Singular samples are highly likely to occur for "
                "ndim - 1 < df < ndim."
            )
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            assert precision_matrix is not None
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)
        self._dist_chi2 = self._chi2(batch_shape)

    def _chi2(self, batch_shape: Size) -> Chi2:
        """Chi2(df - i) for the i-th diagonal entry of the Bartlett factor."""
        p = self._event_shape[-1]
        steps = torch.arange(p, dtype=self._unbroadcasted_scale_tril.dtype)
        return Chi2(df=self.df.unsqueeze(-1) - steps.expand((*batch_shape, -1)))

    def expand(self, batch_shape: Any, _instance: Any = None) -> Wishart:
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = Size(batch_shape)
        cov_shape = batch_shape + self.event_shape
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(cov_shape)
        new.df = self.df.expand(batch_shape)
        new._batch_dims = [-(x + 1) for x in range(len(batch_shape))]
        for name in _MATRICES:
            if name in self.__dict__:
                new.__dict__[name] = self.__dict__[name].expand(cov_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._dist_chi2 = new._chi2(batch_shape)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self) -> Tensor:
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self) -> Tensor:
        L = self._unbroadcasted_scale_tril
        return (L @ L.transpose(-2, -1)).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self) -> Tensor:
        identity = torch.eye(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        return torch.cholesky_solve(identity, self._unbroadcasted_scale_tril).expand(
            self._batch_shape + self._event_shape
        )

    def _per_batch(self, factor: Tensor, mat: Tensor) -> Tensor:
        """`factor` (one per batch entry) times the matrices `mat`."""
        return factor.view(self._batch_shape + (1, 1)) * mat  # noqa: RUF005 (a Size)

    @property
    def mean(self) -> Tensor:
        return self._per_batch(self.df, self.covariance_matrix)

    @property
    def mode(self) -> Tensor:
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor[factor <= 0] = float("nan")
        return self._per_batch(factor, self.covariance_matrix)

    @property
    def variance(self) -> Tensor:
        V = self.covariance_matrix
        diag_V = V.diagonal(dim1=-2, dim2=-1)
        outer = torch.einsum("...i,...j->...ij", diag_V, diag_V)
        return self._per_batch(self.df, V.pow(2) + outer)

    def _bartlett_sampling(self, sample_shape: Any = ()) -> Tensor:
        p = self._event_shape[-1]
        chi = self._dist_chi2.rsample(sample_shape).sqrt()
        noise = _clamp_above_eps(chi).diag_embed(dim1=-2, dim2=-1)
        i, j = torch.tril_indices(p, p, offset=-1)
        noise[..., i, j] = torch.randn(
            Size(sample_shape) + self._batch_shape + (p * (p - 1) // 2,),
            dtype=noise.dtype,
        )
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape: Any = (), max_try_correction: Any = None) -> Tensor:
        """A Bartlett draw, redrawn up to `max_try_correction` (10) times where flagged.

        PyTorch flags the draws its support check passes (not the singular ones), warns
        "Singular sample detected." and redraws them once; so does this, to draw the same
        numbers."""
        if max_try_correction is None:
            max_try_correction = 10
        sample_shape = Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        is_singular = self.support.check(sample)
        if self._batch_shape:
            is_singular = is_singular.amax(self._batch_dims)
        if is_singular.any():
            warn("Singular sample detected.")
            for _ in range(max_try_correction):
                sample_new = self._bartlett_sampling(is_singular[is_singular].shape)
                sample[is_singular] = sample_new
                is_singular_new = ~self.support.check(sample_new)
                if self._batch_shape:
                    is_singular_new = is_singular_new.amax(self._batch_dims)
                is_singular[is_singular.clone()] = is_singular_new
                if not is_singular.any():
                    break
        return sample

    def _half_log_det_term(self) -> Tensor:
        """p log 2 / 2 + log det L, the log normaliser's part per degree of freedom."""
        p = self._event_shape[-1]
        log_diag = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log()
        out: Tensor = p * _log_2 / 2 + log_diag.sum(-1)
        return out

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        trace = torch.cholesky_solve(value, self._unbroadcasted_scale_tril)
        out: Tensor = (
            -nu * self._half_log_det_term()
            - torch.mvlgamma(nu / 2, p=p)
            + (nu - p - 1) / 2 * torch.linalg.slogdet(value).logabsdet
            - trace.diagonal(dim1=-2, dim2=-1).sum(dim=-1) / 2
        )
        return out

    def entropy(self) -> Tensor:
        nu = self.df
        p = self._event_shape[-1]
        out: Tensor = (
            (p + 1) * self._half_log_det_term()
            + torch.mvlgamma(nu / 2, p=p)
            - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p)
            + nu * p / 2
        )
        return out

    @property
    def _natural_params(self) -> tuple[Tensor, Tensor]:
        nu = self.df
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (nu - p - 1) / 2

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        x, y = natural_params
        p = self._event_shape[-1]
        out: Tensor = (y + (p + 1) / 2) * (
            -torch.linalg.slogdet(-2 * x).logabsdet + _log_2 * p
        ) + torch.mvlgamma(y + (p + 1) / 2, p=p)
        return out
