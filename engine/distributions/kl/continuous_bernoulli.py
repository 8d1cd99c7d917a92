"""KL(p || q) between a ContinuousBernoulli and the other families PyTorch pairs it with: its
closed forms, and infinity where p's support reaches outside q's."""

from __future__ import annotations

import math
from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions.beta import Beta
from engine.distributions.continuous_bernoulli import ContinuousBernoulli
from engine.distributions.exponential import Exponential
from engine.distributions.gamma import Gamma
from engine.distributions.gumbel import Gumbel
from engine.distributions.kinds import Normal, Uniform
from engine.distributions.kl.registry import register_kl
from engine.distributions.laplace import Laplace
from engine.distributions.pareto import Pareto

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)
inf = math.inf


def _cross_entropy_to(p: Any, q: ContinuousBernoulli) -> Tensor:
    """-E_p[log q(x)] - H(p): what Beta and Uniform against q share."""
    out: Tensor = -p.entropy() - p.mean * q.logits - torch.log1p(-q.probs) - q._cont_bern_log_norm()
    return out


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p: Beta, q: ContinuousBernoulli) -> Tensor:
    return _cross_entropy_to(p, q)


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p: Uniform, q: ContinuousBernoulli) -> Tensor:
    result = _cross_entropy_to(p, q)
    outside = torch.maximum(
        torch.ge(p.high, q.support.upper_bound), torch.le(p.low, q.support.lower_bound)
    )
    return torch.where(outside, torch.ones_like(result) * inf, result)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p: ContinuousBernoulli, q: Exponential) -> Tensor:
    return -p.entropy() - torch.log(q.rate) + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p: ContinuousBernoulli, q: Normal) -> Tensor:
    t1 = -p.entropy()
    t2 = 0.5 * (math.log(2.0 * math.pi) + torch.square(q.loc / q.scale)) + torch.log(q.scale)
    t3 = (p.variance + torch.square(p.mean) - 2.0 * q.loc * p.mean) / (2.0 * torch.square(q.scale))
    return t1 + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p: ContinuousBernoulli, q: Uniform) -> Tensor:
    result = -p.entropy() + (q.high - q.low).log()
    outside = torch.maximum(
        torch.ge(q.low, p.support.lower_bound), torch.le(q.high, p.support.upper_bound)
    )
    return torch.where(outside, torch.ones_like(result) * inf, result)


@register_kl(ContinuousBernoulli, Pareto)
def _kl_continuous_bernoulli_infinity(p: ContinuousBernoulli, q: Pareto) -> Tensor:
    return torch.full_like(p.probs, inf)


@register_kl(Exponential, ContinuousBernoulli)
@register_kl(Gamma, ContinuousBernoulli)
@register_kl(Gumbel, ContinuousBernoulli)
@register_kl(Laplace, ContinuousBernoulli)
@register_kl(Normal, ContinuousBernoulli)
@register_kl(Pareto, ContinuousBernoulli)
def _kl_unbounded_continuous_bernoulli(p: Any, q: ContinuousBernoulli) -> Tensor:
    # shaped like p's first parameter (rate, concentration, loc, alpha), as PyTorch's
    return torch.full_like(getattr(p, next(iter(p.arg_constraints))), inf)
