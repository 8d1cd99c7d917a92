"""More of `torch.nn.functional`: shrink activations, prelu, distances and margin losses.

Composite functions are written in PyTorch's order of operations so the recorded graph has
the same nodes (e.g. pairwise_distance is NormBackward1 over AddBackward1 over SubBackward0).
"""

from __future__ import annotations

import math
from typing import Any

from engine._tensor import Tensor
from engine.nn._functional_loss import legacy_reduction
from engine.ops import nn_act
from engine.ops.nn_extra import add_scalar
from engine.ops.reduce_stats import norm_overload


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return nn_act.hardshrink(input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return nn_act.softshrink(input, lambd)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    return nn_act.prelu(input, weight)


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()  # type: ignore[attr-defined, no-any-return]
    if reduction == "mean":
        return loss.mean()  # type: ignore[attr-defined, no-any-return]
    raise ValueError(f"{reduction} is not a valid value for reduction")


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """||x1 - x2 + eps||_p over the last dim."""
    diff = add_scalar(x1 - x2, eps)
    return norm_overload(diff, p, diff.ndim - 1, keepdim)


def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0.0,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """max(0, -target * (input1 - input2) + margin)."""
    red = legacy_reduction(size_average, reduce, reduction)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} "
        )
    shifted = add_scalar((-target) * (input1 - input2), margin)
    return _reduce(shifted.clamp_min(0), red)  # type: ignore[attr-defined]


def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """max(0, margin + d(anchor, positive) - d(anchor, negative))."""
    red = legacy_reduction(size_average, reduce, reduction)
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = d_neg.minimum(pairwise_distance(positive, negative, p, eps))  # type: ignore[attr-defined]
    return _reduce((add_scalar(d_pos, margin) - d_neg).clamp_min(0), red)  # type: ignore[attr-defined]


def poisson_nll_loss(
    input: Tensor,
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average: Any = None,
    eps: float = 1e-8,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """exp(input) - target * input (log_input), else input - target * log(input + eps)."""
    red = legacy_reduction(size_average, reduce, reduction)
    if log_input:
        loss = input.exp() - target * input  # type: ignore[attr-defined]
    else:
        loss = input - target * (input + eps).log()  # type: ignore[attr-defined]
    if full:
        t = target
        stirling = t * t.log() - t + (t * (2 * math.pi)).log() * 0.5  # type: ignore[attr-defined]
        loss = loss + stirling.masked_fill(t <= 1, 0)
    return _reduce(loss, red)


__all__ = [
    "hardshrink",
    "margin_ranking_loss",
    "pairwise_distance",
    "poisson_nll_loss",
    "prelu",
    "softshrink",
    "triplet_margin_loss",
]
