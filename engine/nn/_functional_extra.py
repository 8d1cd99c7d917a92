"""More of `torch.nn.functional`: channel dropout, interpolate, rms_norm, instance_norm."""

from __future__ import annotations

import math
from typing import Any

from engine._tensor import Tensor
from engine.ops._core import check_inplace, rebase
from engine.ops.composite import add_scalar


def _feature_dropout(x: Tensor, p: float, training: bool, inplace: bool) -> Tensor:
    """Zero whole channels: one mask entry per (sample, channel), as PyTorch's dropout2d."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    from engine.nn.functional import _dropout_noise

    shape = tuple(x.shape[:2]) + (1,) * (x.ndim - 2)
    out = x * _dropout_noise(x, shape, p)
    if inplace:
        check_inplace(x)
        return rebase(x, out)
    return out


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    return _feature_dropout(input, p, training, inplace)


def dropout2d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    return _feature_dropout(input, p, training, inplace)


_LINEAR_MODES = {"linear": 3, "bilinear": 4, "trilinear": 5}


def interpolate(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resize the spatial dims: 'nearest', 'linear' (3D), 'bilinear' (4D), 'trilinear' (5D)."""
    from engine.ops.nn_upsample import upsample

    n = input.ndim - 2
    if mode == "nearest" and align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear"
        )
    if mode in _LINEAR_MODES and input.ndim != _LINEAR_MODES[mode]:
        need = _LINEAR_MODES[mode]
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs {need}D input")
    if mode != "nearest" and mode not in _LINEAR_MODES:
        raise NotImplementedError(f"interpolate mode '{mode}' is not supported by the engine")
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    scales: list[float] | None = None
    if size is not None:
        out = [int(s) for s in size] if isinstance(size, list | tuple) else [int(size)] * n
    else:
        scales = (
            [float(s) for s in scale_factor]
            if isinstance(scale_factor, list | tuple)
            else [float(scale_factor)] * n
        )
        out = [math.floor(float(d) * s) for d, s in zip(input.shape[2:], scales)]
        if recompute_scale_factor:
            scales = None
    return upsample(input, tuple(out), mode, bool(align_corners), scales)


def upsample(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Tensor:
    return interpolate(input, size, scale_factor, mode, align_corners)


def rms_norm(
    input: Tensor, normalized_shape: Any, weight: Tensor | None = None, eps: float | None = None
) -> Tensor:
    """x / sqrt(mean(x^2) + eps) over the trailing dims, times weight (ATen's composite)."""
    from engine._finfo import finfo

    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    dims = list(range(input.ndim - len(shape), input.ndim))
    eps_val = finfo(input.dtype).eps if eps is None else eps
    sq_mean = input.pow(2).mean(dims, keepdim=True)  # type: ignore[attr-defined]
    rsq = add_scalar(sq_mean, eps_val).rsqrt()
    result = input.mul(rsq)  # type: ignore[attr-defined]
    return result.mul(weight) if weight is not None else result  # type: ignore[no-any-return]


def instance_norm(
    input: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Batch norm over (1, N*C, ...): each sample's channels normalised alone (ATen's way)."""
    from engine.autograd.grad_mode import no_grad
    from engine.nn._functional_more import batch_norm

    b, c = input.shape[0], input.shape[1]
    x = input.contiguous().view(1, b * c, *input.shape[2:])  # type: ignore[attr-defined]
    w = weight.repeat(b) if weight is not None else None  # type: ignore[attr-defined]
    bs = bias.repeat(b) if bias is not None else None  # type: ignore[attr-defined]
    rm = running_mean.repeat(b) if running_mean is not None else None  # type: ignore[attr-defined]
    rv = running_var.repeat(b) if running_var is not None else None  # type: ignore[attr-defined]
    out = batch_norm(x, rm, rv, w, bs, use_input_stats, momentum, eps)
    with no_grad():  # the repeated running stats fold back into the per-channel ones
        if running_mean is not None and rm is not None:
            running_mean.copy_(rm.view(b, c).mean(0))  # type: ignore[attr-defined]
        if running_var is not None and rv is not None:
            running_var.copy_(rv.view(b, c).mean(0))  # type: ignore[attr-defined]
    return out.view(input.shape)  # type: ignore[attr-defined,no-any-return]
