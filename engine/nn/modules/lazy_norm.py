"""LazyBatchNorm1d/2d/3d and LazyInstanceNorm1d/2d/3d: num_features comes from the first
input (its dim 1, as in PyTorch, even for unbatched instance-norm input), then the layer
fills its parameters and buffers in place and becomes the plain layer."""

from __future__ import annotations

from typing import Any

from engine import _creation
from engine._tensor import Tensor
from engine.nn.modules.norm import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    _BatchNorm,
)


def _lazy_norm_init(
    self: _BatchNorm,
    eps: float = 1e-5,
    momentum: float | None = 0.1,
    affine: bool = True,
    track_running_stats: bool = True,
    device: Any = None,
    dtype: Any = None,
) -> None:
    """The lazy constructor: empty parameters and buffers of 0 features."""
    _BatchNorm.__init__(self, 0, eps, momentum, affine, track_running_stats, device, dtype)


def _lazy_norm_forward(self: _BatchNorm, input: Tensor) -> Tensor:
    if self.num_features == 0:
        n = int(input.shape[1])
        names = ("weight", "bias", "running_mean", "running_var")
        lazy = [t for t in (getattr(self, name) for name in names) if t is not None]
        if lazy:  # with nothing to fill, PyTorch leaves num_features at 0
            self.num_features = n
            for t in lazy:
                t.data = _creation.empty(n, dtype=t.dtype)
            self.reset_parameters()
        self.__class__ = self._becomes  # type: ignore[attr-defined]  # PyTorch's cls_to_become
    return self.forward(input)  # type: ignore[no-any-return]


class LazyBatchNorm1d(BatchNorm1d):
    _becomes = BatchNorm1d
    __init__ = _lazy_norm_init
    forward = _lazy_norm_forward


class LazyBatchNorm2d(BatchNorm2d):
    _becomes = BatchNorm2d
    __init__ = _lazy_norm_init
    forward = _lazy_norm_forward


class LazyBatchNorm3d(BatchNorm3d):
    _becomes = BatchNorm3d
    __init__ = _lazy_norm_init
    forward = _lazy_norm_forward


class LazyInstanceNorm1d(InstanceNorm1d):
    _becomes = InstanceNorm1d
    __init__ = _lazy_norm_init
    forward = _lazy_norm_forward


class LazyInstanceNorm2d(InstanceNorm2d):
    _becomes = InstanceNorm2d
    __init__ = _lazy_norm_init
    forward = _lazy_norm_forward


class LazyInstanceNorm3d(InstanceNorm3d):
    _becomes = InstanceNorm3d
    __init__ = _lazy_norm_init
    forward = _lazy_norm_forward


__all__ = [
    "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d",
    "LazyInstanceNorm2d", "LazyInstanceNorm3d",
]  # fmt: skip
