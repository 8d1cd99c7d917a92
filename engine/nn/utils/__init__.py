"""`torch.nn.utils`: gradient clipping and parameter/vector conversion."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from engine._tensor import Tensor, make, write
from engine._warn import warn

Params = Tensor | Iterable[Tensor]


def _list(parameters: Params) -> list[Tensor]:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def _norm(a: np.ndarray[Any, Any], p: float) -> Any:
    if math.isinf(p):
        return np.abs(a).max() if a.size else a.dtype.type(0)
    return (np.abs(a) ** p).sum() ** (1.0 / p)


def get_total_norm(
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
    total = get_total_norm(grads, norm_type, error_if_nonfinite)
    if grads:
        clip_grads_with_norm_(ps, max_norm, total)
    return total


def clip_grad_norm(*args: Any, **kwargs: Any) -> Tensor:
    """`clip_grad_norm_` under its deprecated name, with PyTorch's FutureWarning."""
    warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
    )
    return clip_grad_norm_(*args, **kwargs)


def clip_grads_with_norm_(
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


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """All parameters flattened into one vector (recorded: a cat of views)."""
    from engine.ops.tensor_shape import cat

    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy consecutive slices of `vec` into the parameters' data."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    i = 0
    for p in parameters:
        n = p.numel()
        write(p, vec._d[i : i + n].reshape(p._d.shape))
        i += n


# submodules PyTorch exposes as `torch.nn.utils.parametrize` / `.parametrizations` / `.rnn` /
# `.fusion` / `.init` / `.memory_format` / `.convert_parameters` / `.stateless` (whose
# functions it also exports here)
from engine.nn.utils import convert_parameters as convert_parameters  # noqa: E402
from engine.nn.utils import fusion as fusion  # noqa: E402
from engine.nn.utils import init as init  # noqa: E402
from engine.nn.utils import memory_format as memory_format  # noqa: E402
from engine.nn.utils import parametrizations as parametrizations  # noqa: E402
from engine.nn.utils import parametrize as parametrize  # noqa: E402
from engine.nn.utils import rnn as rnn  # noqa: E402
from engine.nn.utils import stateless as stateless  # noqa: E402
from engine.nn.utils.fusion import fuse_conv_bn_eval as fuse_conv_bn_eval  # noqa: E402
from engine.nn.utils.fusion import fuse_conv_bn_weights as fuse_conv_bn_weights  # noqa: E402
from engine.nn.utils.fusion import fuse_linear_bn_eval as fuse_linear_bn_eval  # noqa: E402
from engine.nn.utils.fusion import fuse_linear_bn_weights as fuse_linear_bn_weights  # noqa: E402
from engine.nn.utils.init import skip_init as skip_init  # noqa: E402
from engine.nn.utils.memory_format import (  # noqa: E402
    convert_conv2d_weight_memory_format as convert_conv2d_weight_memory_format,
)
from engine.nn.utils.memory_format import (  # noqa: E402
    convert_conv3d_weight_memory_format as convert_conv3d_weight_memory_format,
)
from engine.nn.utils.spectral_norm import remove_spectral_norm as remove_spectral_norm  # noqa: E402
from engine.nn.utils.spectral_norm import spectral_norm as spectral_norm  # noqa: E402
from engine.nn.utils.weight_norm import remove_weight_norm as remove_weight_norm  # noqa: E402
from engine.nn.utils.weight_norm import weight_norm as weight_norm  # noqa: E402

__all__ = [  # noqa: RUF022 (PyTorch's order)
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grads_with_norm_",
    "clip_grad_value_",
    "convert_conv2d_weight_memory_format",
    "convert_conv3d_weight_memory_format",
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
    "get_total_norm",
    "parameters_to_vector",
    "parametrizations",
    "parametrize",
    "remove_spectral_norm",
    "remove_weight_norm",
    "rnn",
    "skip_init",
    "spectral_norm",
    "stateless",
    "vector_to_parameters",
    "weight_norm",
]
