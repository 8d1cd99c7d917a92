"""Margin and embedding losses: margin_ranking, triplet, hinge_embedding, cosine_embedding,
soft_margin, multi(label)_margin."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.nn.functional.distance import pairwise_distance
from engine.nn.functional.loss import _reduce, legacy_reduction
from engine.ops import autocast as _autocast
from engine.ops import nn_loss_margin as M
from engine.ops.scalar_overloads import add_scalar


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
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input1, input2, target = _autocast.fp32(input1, input2, target)
    red = legacy_reduction(size_average, reduce, reduction)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} "
        )
    shifted = add_scalar((-target) * (input1 - input2), margin)
    return _reduce(shifted.clamp_min(0), red)


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
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        anchor, positive, negative = _autocast.fp32(anchor, positive, negative)
    red = legacy_reduction(size_average, reduce, reduction)
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = d_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return _reduce((add_scalar(d_pos, margin) - d_neg).clamp_min(0), red)


def _scalar_minus(c: float, t: Tensor) -> Tensor:
    """C++ `c - t`: a SubBackward0 from a wrapped number (no RsubBackward1)."""
    return make(np.asarray(c, t._d.dtype), False, None, 0) - t


def soft_margin_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """log(1 + exp(-y x)), one SoftMarginLossBackward0 node."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target = _autocast.fp32(input, target)
    return M.soft_margin_loss(input, target, legacy_reduction(size_average, reduce, reduction))


def multi_margin_loss(
    input: Tensor,
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """Multi-class hinge loss (p = 1 or 2)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, weight = _autocast.fp32(input, weight)
    red = legacy_reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    return M.multi_margin_loss(input, target, p, margin, weight, red)


def multilabel_margin_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """Multi-label hinge loss over the target classes listed before the first -1."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        (input,) = _autocast.fp32(input)
    red = legacy_reduction(size_average, reduce, reduction)
    return M.multilabel_margin_loss(input, target, red)


def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """1 - cos(x1, x2) where target is 1, max(0, cos - margin) where it is -1."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input1, input2, target = _autocast.fp32(input1, input2, target)
    from engine.ops.pointwise import where
    from engine.ops.scalar_overloads import sub_scalar

    red = legacy_reduction(size_average, reduce, reduction)
    tdim = target.dim()
    if tdim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    want = 2 if tdim == 1 else 1
    if input1.dim() != want or input2.dim() != want:
        raise RuntimeError(
            f"{tdim}D target tensor expects {want}D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}."
        )
    a: Any = input1
    b: Any = input2
    prod_sum = (a * b).sum(tdim)
    mag1 = (a * a).sum(tdim) + 1e-12
    mag2 = (b * b).sum(tdim) + 1e-12
    cos = prod_sum / (mag1 * mag2).sqrt_()
    zeros = make(np.zeros(cos._d.shape, cos._d.dtype), False, None, 0)
    pos = _scalar_minus(1, cos)
    neg = sub_scalar(cos, margin).clamp_min_(0)  # C++ `cos - margin`: SubBackward1
    tg: Any = target
    out = where(tg == 1, pos, zeros) + where(tg == -1, neg, zeros)
    return _reduce(out, red)


def hinge_embedding_loss(
    input: Tensor,
    target: Tensor,
    margin: float = 1.0,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """x where target is 1, max(0, margin - x) where it is -1."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target = _autocast.fp32(input, target)
    from engine.ops.pointwise import where

    red = legacy_reduction(size_average, reduce, reduction)
    zeros = make(np.zeros(input._d.shape, input._d.dtype), False, None, 0)
    margin_clamp: Any = _scalar_minus(margin, input).clamp_min_(0)
    tg: Any = target
    out = where(tg != 1, margin_clamp, zeros) + where(tg != -1, input, zeros)
    return _reduce(out, red)


def multilabel_soft_margin_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """Per-class binary logistic loss averaged over classes."""
    from engine.nn.functional.activation import logsigmoid

    red = legacy_reduction(size_average, reduce, reduction)
    x: Any = input
    t: Any = target
    loss = -(t * logsigmoid(x) + (1 - t) * logsigmoid(-x))
    if weight is not None:
        loss = loss * weight
    class_dim = x.dim() - 1
    loss = loss.sum(dim=class_dim) / x.size(class_dim)
    if red not in ("none", "mean", "sum"):
        raise ValueError(red + " is not valid")
    return _reduce(loss, red)


def triplet_margin_with_distance_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    *,
    distance_function: Any = None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """max(0, margin + d(anchor, positive) - d(anchor, negative)) for any distance d."""
    from engine.nn.functional.distance import pairwise_distance
    from engine.ops.pointwise_binary import clamp_min

    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D "
            "inputs"
        )
    dist = distance_function if distance_function is not None else pairwise_distance
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = d_neg.minimum(dist(positive, negative))
    loss = clamp_min(margin + d_pos - d_neg, 0)
    return _reduce(loss, reduction)
