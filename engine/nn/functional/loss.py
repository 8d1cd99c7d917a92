"""Loss functions of `torch.nn.functional`, composed as PyTorch composes them."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine._dtype import SCALAR_NAMES
from engine._tensor import Tensor, make
from engine._warn import warn
from engine.autograd.grad_mode import no_grad
from engine.ops import autocast as _autocast
from engine.ops import nn_loss
from engine.ops.scalar_overloads import div_scalar, mul_scalar


def legacy_reduction(size_average: Any, reduce: Any, reduction: str) -> str:
    """The `reduction` string for the deprecated `size_average` / `reduce` arguments."""
    if size_average is None and reduce is None:
        return reduction
    warn(
        "size_average and reduce args will be deprecated, please use reduction='"
        + _legacy(size_average, reduce)
        + "' instead.",
        UserWarning,
    )
    return _legacy(size_average, reduce)


def _legacy(size_average: Any, reduce: Any) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    weight: Any = None,
) -> Tensor:
    """Mean squared error."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target = _autocast.fp32(input, target)
    return nn_loss.mse_loss(input, target, legacy_reduction(size_average, reduce, reduction))


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    weight: Any = None,
) -> Tensor:
    """Mean absolute error: |input - target| reduced (three nodes in PyTorch)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target = _autocast.fp32(input, target)
    if input.shape != target.shape:
        warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            UserWarning,
        )
    return _reduce((input - target).abs(), legacy_reduction(size_average, reduce, reduction))


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """Huber-like loss with a quadratic zone of width `beta` (beta=0 is L1)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target = _autocast.fp32(input, target)
    red = legacy_reduction(size_average, reduce, reduction)
    if beta == 0.0:
        return l1_loss(input, target, reduction=red)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return nn_loss.smooth_l1_loss(input, target, red, beta)


def huber_loss(
    input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0, weight: Any = None
) -> Tensor:
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target = _autocast.fp32(input, target)
    return nn_loss.huber_loss(input, target, reduction, delta)


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """Negative log-likelihood of class indices."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, weight = _autocast.fp32(input, weight)
    red = legacy_reduction(size_average, reduce, reduction)
    return _nll_nd(input, target, weight, red, ignore_index)


def _nll_nd(x: Tensor, target: Tensor, weight: Tensor | None, red: str, ignore: int) -> Tensor:
    """PyTorch's nll_loss_nd: 3d and >4d inputs go through the 2d kernel as (N, C, 1, -1)."""
    if x.ndim == 3 or x.ndim > 4:
        n, c = x.shape[0], x.shape[1]
        if target.shape[1:] != x.shape[2:]:
            raise RuntimeError(
                f"Expected target size {[n, *x.shape[2:]]}, got {list(target.shape)}"
            )
        x4 = x.contiguous().view(n, c, 1, -1)
        t3 = target.contiguous().view(n, 1, -1)
        out = nn_loss.nll_loss(x4, t3, weight, red, ignore)
        return out.view(*target.shape) if red == "none" else out
    return nn_loss.nll_loss(x, target, weight, red, ignore)


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """log_softmax then nll (class indices), or -sum(target * log_softmax) (probabilities)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target, weight = _autocast.fp32(input, target, weight)
    red = legacy_reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    cdim = 0 if input.ndim == 1 else 1
    if input.shape == target.shape:  # class probabilities, checked before any work
        if not target.is_floating_point():
            name = SCALAR_NAMES[target.dtype.name]
            raise RuntimeError(
                f"Expected floating point type for target with class probabilities, got {name}"
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
    logp = input.log_softmax(cdim)
    if input.shape == target.shape:
        return _ce_probs(logp, target, weight, red, label_smoothing, cdim)
    nll = _nll_nd(logp, target, weight, red, ignore_index)
    if label_smoothing == 0.0:
        return nll
    return _ce_smoothing(logp, target, weight, red, ignore_index, label_smoothing, cdim, nll)


def _wshape(weight: Tensor, ndim: int, cdim: int) -> Tensor:
    shape = [1] * ndim
    shape[cdim] = weight.shape[0]
    return weight.view(*shape)


def _ce_probs(
    logp: Tensor, target: Tensor, weight: Tensor | None, red: str, ls: float, cdim: int
) -> Tensor:
    if logp.shape != target.shape:
        raise RuntimeError(f"Expected target size {list(logp.shape)}, got {list(target.shape)}")
    c = logp.shape[cdim]
    if ls > 0:
        target = target * (1 - ls) + ls / c
    prod = logp * target if weight is None else logp * target * _wshape(weight, logp.ndim, cdim)
    if red == "none":
        return -prod.sum(cdim)
    total = -prod.sum()
    if red == "sum":
        return total
    return div_scalar(total, logp.numel() / c)


def _ce_smoothing(
    logp: Tensor,
    target: Tensor,
    weight: Tensor | None,
    red: str,
    ignore: int,
    ls: float,
    cdim: int,
    nll: Tensor,
) -> Tensor:
    c = logp.shape[cdim]
    ignore_mask = make(target._d == ignore, False, None, 0)
    if weight is None:
        smooth = -logp.sum(cdim)
    else:
        smooth = -(logp * _wshape(weight, logp.ndim, cdim)).sum(cdim)
    smooth = smooth.masked_fill(ignore_mask, 0.0)
    if red == "mean":
        if weight is None:
            denom = make(np.asarray((~ignore_mask._d).sum()), False, None, 0)
        else:
            kept = target._d[~ignore_mask._d].reshape(-1)
            denom = make(np.asarray(weight._d[kept].sum(), weight._d.dtype), False, None, 0)
        smooth = smooth.sum() / denom
    elif red == "sum":
        smooth = smooth.sum()
    return mul_scalar(nll, 1 - ls) + mul_scalar(smooth, ls / c)


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """Binary cross-entropy of probabilities."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target, weight = _autocast.fp32(input, target, weight)
    red = legacy_reduction(size_average, reduce, reduction)
    return nn_loss.binary_cross_entropy(input, target, weight, red)


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """Binary cross-entropy of logits (sigmoid fused, numerically stable)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target, weight, pos_weight = _autocast.fp32(input, target, weight, pos_weight)
    red = legacy_reduction(size_average, reduce, reduction)
    return nn_loss.binary_cross_entropy_with_logits(input, target, weight, pos_weight, red)


def kl_div(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """KL(target || input) with `input` given as log-probabilities."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target = _autocast.fp32(input, target)
    red = legacy_reduction(size_average, reduce, reduction)
    if red == "mean":
        warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release.",
            UserWarning,
        )
    if any(not (t.is_floating_point() or t.is_complex()) for t in (input, target)):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        # ATen's `xlogy(target, target) - target * input`, the product made first (as its
        # compiled code does: saved-tensor hooks see that packing order)
        ti = target * input
        if target._rg:
            tlogt = target.xlogy(target)
        else:
            t = target._d
            with np.errstate(all="ignore"):
                v = np.where(t == 0, 0, t * np.log(np.where(t == 0, 1, t)))
            tlogt = make(np.asarray(v, t.dtype), False, None, 0)
        loss = tlogt - ti
    if red == "batchmean":
        if input.ndim == 0:
            return loss.sum()
        return loss.sum() / input.shape[0]  # type: ignore[no-any-return]
    return _reduce(loss, red)


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
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, target = _autocast.fp32(input, target)
    red = legacy_reduction(size_average, reduce, reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        t = target
        stirling = t * t.log() - t + (t * (2 * math.pi)).log() * 0.5
        loss = loss + stirling.masked_fill(t <= 1, 0)
    return _reduce(loss, red)


def gaussian_nll_loss(
    input: Tensor,
    target: Tensor,
    var: Any,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    """0.5 * (log(var) + (input - target)^2 / var), var clamped to eps (without gradient)."""
    from engine._creation import ones_like

    x = input
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(x)
    elif bool(np.any(var._d < 0)):
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(x.shape):
        if tuple(x.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif x.ndim != var.ndim or sum(v for s, v in zip(x.shape, var.shape) if s != v) != 1:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (x - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def _lengths(v: Any) -> list[int]:
    if isinstance(v, Tensor):
        return [int(a) for a in np.asarray(v._d).reshape(-1)]
    return [int(a) for a in v]


def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths: Any,
    target_lengths: Any,
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
) -> Tensor:
    """The CTC loss of log_probs (T, N, C) against unaligned targets, composed as ATen does:
    `_ctc_loss`, optional zeroing of infinite losses, then the reduction."""
    from engine._creation import tensor as _tensor
    from engine.ops import nn_ctc

    unbatched = log_probs.ndim == 2
    lp = log_probs.unsqueeze(1) if unbatched else log_probs
    tg = targets.unsqueeze(0) if unbatched and targets.ndim == 1 else targets
    tl = _lengths(target_lengths)
    res = nn_ctc.ctc_loss(lp, tg, _lengths(input_lengths), tl, blank, zero_infinity)
    if zero_infinity:
        zero = _tensor(0.0, dtype=res.dtype)
        res = zero.where(res == float("inf"), res)  # where(res == inf, 0, res), as ATen
    if reduction == "mean":
        return (res / _tensor(tl, dtype=res.dtype).clamp_min(1)).mean()
    if reduction == "sum":
        return res.sum()
    return res.squeeze(0) if unbatched else res
