"""KL(p || q) between the multivariate normals, full-rank and low-rank in each order (PyTorch's
closed forms: log-determinants, traces and Mahalanobis terms through Cholesky factors)."""

from __future__ import annotations

import engine as _engine
from engine._tensor import Tensor
from engine.distributions.distribution import Distribution
from engine.distributions.kl.registry import register_kl
from engine.distributions.lowrank_multivariate_normal import (
    LowRankMultivariateNormal,
    _batch_lowrank_logdet,
    _batch_lowrank_mahalanobis,
)
from engine.distributions.multivariate_normal import MultivariateNormal, _batch_mahalanobis

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


def _batch_trace_XXT(bmat: Tensor) -> Tensor:
    """trace(X X^T) over any leading batch dims."""
    n = bmat.size(-1)
    m = bmat.size(-2)
    flat_trace = bmat.reshape(-1, m * n).pow(2).sum(-1)
    return flat_trace.reshape(bmat.shape[:-2])


def _check_event_shapes(p: Distribution, q: Distribution, what: str) -> None:
    if p.event_shape != q.event_shape:
        raise ValueError(
            f"KL-divergence between two {what} with\
                          different event shapes cannot be computed"
        )


def _lowrank_logdet(d: LowRankMultivariateNormal) -> Tensor:
    W, D = d._unbroadcasted_cov_factor, d._unbroadcasted_cov_diag
    return _batch_lowrank_logdet(W, D, d._capacitance_tril)


def _lowrank_mahalanobis(q: LowRankMultivariateNormal, x: Tensor) -> Tensor:
    W, D = q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag
    return _batch_lowrank_mahalanobis(W, D, x, q._capacitance_tril)


def _woodbury_A(q: LowRankMultivariateNormal) -> Tensor:
    """A with inv(q's covariance) = inv(D) - A^T A."""
    qWt_qDinv = q._unbroadcasted_cov_factor.mT / q._unbroadcasted_cov_diag.unsqueeze(-2)
    A: Tensor = torch.linalg.solve_triangular(q._capacitance_tril, qWt_qDinv, upper=False)
    return A


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrankmultivariatenormal_lowrankmultivariatenormal(
    p: LowRankMultivariateNormal, q: LowRankMultivariateNormal
) -> Tensor:
    _check_event_shapes(p, q, "Low Rank Multivariate Normals")
    term1 = _lowrank_logdet(q) - _lowrank_logdet(p)
    term3 = _lowrank_mahalanobis(q, q.loc - p.loc)
    # inv(qcov) @ pcov = [inv(qD) - A.T @ A] @ (pD + pW @ pW.T)
    A = _woodbury_A(q)
    pW, pD, qD = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag, q._unbroadcasted_cov_diag
    term21 = (pD / qD).sum(-1)
    term22 = _batch_trace_XXT(pW * qD.rsqrt().unsqueeze(-1))
    term23 = _batch_trace_XXT(A * pD.sqrt().unsqueeze(-2))
    term24 = _batch_trace_XXT(A.matmul(pW))
    term2 = term21 + term22 - term23 - term24
    out: Tensor = 0.5 * (term1 + term2 + term3 - p.event_shape[0])
    return out


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_multivariatenormal_lowrankmultivariatenormal(
    p: MultivariateNormal, q: LowRankMultivariateNormal
) -> Tensor:
    _check_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    p_tril = p._unbroadcasted_scale_tril
    term1 = _lowrank_logdet(q) - 2 * p_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    term3 = _lowrank_mahalanobis(q, q.loc - p.loc)
    # inv(qcov) @ pcov = [inv(qD) - A.T @ A] @ p_tril @ p_tril.T
    A = _woodbury_A(q)
    term21 = _batch_trace_XXT(p_tril * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1))
    term22 = _batch_trace_XXT(A.matmul(p_tril))
    term2 = term21 - term22
    out: Tensor = 0.5 * (term1 + term2 + term3 - p.event_shape[0])
    return out


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrankmultivariatenormal_multivariatenormal(
    p: LowRankMultivariateNormal, q: MultivariateNormal
) -> Tensor:
    _check_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    q_tril = q._unbroadcasted_scale_tril
    term1 = 2 * q_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) - _lowrank_logdet(p)
    term3 = _batch_mahalanobis(q_tril, (q.loc - p.loc))
    # inv(qcov) @ pcov = inv(q_tril @ q_tril.T) @ (pW @ pW.T + pD)
    batch = torch.broadcast_shapes(q_tril.shape[:-2], p._unbroadcasted_cov_factor.shape[:-2])
    n = p.event_shape[0]
    q_scale_tril = q_tril.expand((*batch, n, n))
    p_cov_factor = p._unbroadcasted_cov_factor.expand((*batch, n, p.cov_factor.size(-1)))
    p_cov_diag = torch.diag_embed(p._unbroadcasted_cov_diag.sqrt()).expand((*batch, n, n))
    solve = torch.linalg.solve_triangular
    term21 = _batch_trace_XXT(solve(q_scale_tril, p_cov_factor, upper=False))
    term22 = _batch_trace_XXT(solve(q_scale_tril, p_cov_diag, upper=False))
    term2 = term21 + term22
    out: Tensor = 0.5 * (term1 + term2 + term3 - p.event_shape[0])
    return out


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(
    p: MultivariateNormal, q: MultivariateNormal
) -> Tensor:
    _check_event_shapes(p, q, "Multivariate Normals")
    p_l, q_l = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = q_l.diagonal(dim1=-2, dim2=-1).log().sum(-1) - p_l.diagonal(
        dim1=-2, dim2=-1
    ).log().sum(-1)
    batch = torch.broadcast_shapes(q_l.shape[:-2], p_l.shape[:-2])
    n = p.event_shape[0]
    q_scale_tril = q_l.expand((*batch, n, n))
    p_scale_tril = p_l.expand((*batch, n, n))
    term2 = _batch_trace_XXT(torch.linalg.solve_triangular(q_scale_tril, p_scale_tril, upper=False))
    term3 = _batch_mahalanobis(q_l, q.loc - p.loc)
    out: Tensor = half_term1 + 0.5 * (term2 + term3 - n)
    return out
