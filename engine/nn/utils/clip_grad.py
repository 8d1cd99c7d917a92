"""`torch.nn.utils.clip_grad`: gradient clipping by total norm or by value."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from engine._tensor import Tensor, make, write
from engine._warn import warn

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_"]

Params = Tensor | Iterable[Tensor]


def _list(parameters: Params) -> list[Tensor]:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def _norm(a: np.ndarray[Any, Any], p: float) -> Any:
    if math.isinf(p):
        return np.abs(a).max() if a.size else a.dtype.type(0)
    return (np.abs(a) ** p).sum() ** (1.0 / p)


def _get_total_norm(
    tensors: Params, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach: Any = None
) -> Tensor:
    """The norm of the per-tensor norms (PyTorch's two-level computation)."""
    ts = _list(tensors)
    if not ts:
        return make(np.asarray(0.0, np.float32), False, None, 0)
    p = float(norm_type)
    norms = np.asarray([_norm(t._d, p) for t in ts], dtype=ts[0]._d.dtype)
    total = np.asarray(_norm(norms, p), dtype=norms.dtype)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(
            f"The total norm of order {p} for gradients from `parameters` is non-finite, so it "
            "cannot be clipped. To disable this error and scale the gradients by the non-finite "
            "norm anyway, set `error_if_nonfinite=False`"
        )
    return make(total, False, None, 0)


def clip_grad_norm_(
    parameters: Params,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: Any = None,
) -> Tensor:
    """Scale gradients in place so their total norm is at most `max_norm`; returns the norm."""
    ps = _list(parameters)
    grads = [p._grad for p in ps if p._grad is not None]
    total = _get_total_norm(grads, norm_type, error_if_nonfinite)
    if grads:
        _clip_grads_with_norm_(ps, max_norm, total)
    return total


def clip_grad_norm(*args: Any, **kwargs: Any) -> Tensor:
    """`clip_grad_norm_` under its deprecated name, with PyTorch's FutureWarning."""
    warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
    )
    return clip_grad_norm_(*args, **kwargs)


def _clip_grads_with_norm_(
    parameters: Params, max_norm: float, total_norm: Tensor, foreach: Any = None
) -> None:
    """Scale gradients in place by max_norm / total_norm when that is below 1 (the second
    half of `clip_grad_norm_`, for a norm computed elsewhere)."""
    grads = [p._grad for p in _list(parameters) if p._grad is not None]
    coef = min(float(max_norm) / (float(total_norm._d) + 1e-6), 1.0)
    for g in grads:  # PyTorch's g.mul_(coef): a new version, which a tracer shows
        write(g, lambda d: np.multiply(d, d.dtype.type(coef), out=d))


def clip_grad_value_(parameters: Params, clip_value: float, foreach: Any = None) -> None:
    """Clamp every gradient to [-clip_value, clip_value] in place. With no gradient at all
    PyTorch's grouping of the gradients by device and dtype refuses the empty list."""
    ps = _list(parameters)
    clip_value = float(clip_value)
    grads = [p._grad for p in ps if p._grad is not None]
    if not grads:
        raise RuntimeError(
            "Expected !nested_tensorlist[0].empty() to be true, but got false.  (Could this "
            "error message be improved?  If so, please report an enhancement request to PyTorch.)"
        )
    for g in grads:
        write(g, lambda d: np.clip(d, -clip_value, clip_value, out=d))
