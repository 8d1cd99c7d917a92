"""Dropout functions: dropout, dropout1d/2d/3d, alpha_dropout, feature_alpha_dropout."""

from __future__ import annotations

import math

import numpy as np

from engine._dtype import SCALAR_NAMES
from engine._tensor import Tensor, make
from engine._warn import warn
from engine.nn.functional.activation import _inplace
from engine.ops._core import check_inplace, rebase
from engine.ops.nn_ops import dropout_noise as _dropout_noise


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero elements with probability p and scale the rest by 1/(1-p) (training only)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    _check_floating(input)
    return _inplace(input, input * _dropout_noise(input, tuple(input.shape), p), inplace)


def _check_floating(x: Tensor) -> None:
    """PyTorch's refusal of an integer or bool input (the float mask cannot scale it)."""
    if not (x.is_floating_point() or x.is_complex()):
        name = SCALAR_NAMES[x.dtype.name]
        raise RuntimeError(f"result type Float can't be cast to the desired output type {name}")


def _feature_dropout(x: Tensor, p: float, training: bool, inplace: bool) -> Tensor:
    """Zero whole channels: one mask entry per (sample, channel), as PyTorch's dropout2d."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    _check_floating(x)
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


_ALPHA = 1.7580993408473766  # SELU's alpha * scale: alpha dropout keeps SELU's fixed point


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout3d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zero whole (depth, height, width) channels; 4D input is one unbatched sample."""
    pass

    _check_p(p)
    if input.ndim not in (4, 5):
        warn(
            f"dropout3d: Received a {input.ndim}-D input to dropout3d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            "this warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 4D or 5D inputs).",
        )
    if input.ndim == 5:
        return _feature_dropout(input, p, training, inplace)
    out = _feature_dropout(input.unsqueeze(0), p, training, inplace)
    return out.squeeze(0)


def _alpha_dropout(x: Tensor, p: float, training: bool, feature: bool) -> Tensor:
    """ATen's `_dropout_impl` with alpha=True: x * noise + b, noise from bernoulli_(1 - p)."""
    from engine._generator import default_generator

    _check_p(p)
    if p == 0 or not training or x._d.size == 0:
        return x
    dt = x._d.dtype
    if p == 1:
        return x * make(np.zeros((), dt), False, None, 0)
    shape = (*x.shape[:2], *(1,) * (x.ndim - 2)) if feature else tuple(x.shape)
    keep = default_generator.bernoulli_scalar(math.prod(shape), 1.0 - p).reshape(shape)
    noise = keep.astype(dt)
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    # the scalars are cast to the tensor's type before each in-place op, as on CPU
    b = (noise - dt.type(1)) * dt.type(_ALPHA * a) + dt.type(_ALPHA * a * p)
    noise = noise * dt.type(a)
    out = x * make(noise, False, None, 0) + make(b.astype(dt), False, None, 0)
    return out


def alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    """Dropout that keeps SELU activations' mean and variance."""
    return _alpha_dropout(input, p, training, False)


def feature_alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    """Alpha dropout of whole channels."""
    return _alpha_dropout(input, p, training, True)
