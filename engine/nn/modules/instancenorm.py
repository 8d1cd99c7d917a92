"""Instance normalization: InstanceNorm1d/2d/3d and their lazy forms."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine._warn import warn
from engine.nn.modules.batchnorm import _BatchNorm, _lazy_norm_forward, _lazy_norm_init


def _instance_forward(m: _BatchNorm, input: Tensor, batch_dims: int) -> Tensor:
    """InstanceNorm's forward: an unbatched input gets a batch dim for the call."""
    from engine.nn.functional.normalization import instance_norm

    if input.ndim not in (batch_dims, batch_dims - 1):
        raise ValueError(
            f"expected {batch_dims - 1}D or {batch_dims}D input (got {input.ndim}D input)"
        )
    unbatched = input.ndim == batch_dims - 1
    dim = 0 if unbatched else 1
    if input.shape[dim] != m.num_features:
        if m.affine:
            raise ValueError(
                f"expected input's size at dim={dim} to match num_features "
                f"({m.num_features}), but got: {input.shape[dim]}."
            )
        warn(
            f"input's size at dim={dim} does not match num_features. You can silence this "
            "warning by not passing in num_features, which is not used because affine=False",
        )
    x = input.unsqueeze(0) if unbatched else input
    out = instance_norm(
        x, m.running_mean, m.running_var, m.weight, m.bias,
        m.training or not m.track_running_stats, m.momentum or 0.0, m.eps,
    )  # fmt: skip
    return out.squeeze(0) if unbatched else out


def _instance_init(
    self: _BatchNorm,
    num_features: int,
    eps: float = 1e-5,
    momentum: float = 0.1,
    affine: bool = False,
    track_running_stats: bool = False,
    device: Any = None,
    dtype: Any = None,
) -> None:
    """InstanceNorm's constructor: BatchNorm's, with no affine or running stats by default."""
    _BatchNorm.__init__(
        self, num_features, eps, momentum, affine, track_running_stats, device, dtype
    )


class InstanceNorm1d(_BatchNorm):
    """Normalise each (sample, channel) over its length; no affine or running stats by default."""

    __init__ = _instance_init

    def forward(self, input: Tensor) -> Tensor:
        return _instance_forward(self, input, 3)


class InstanceNorm2d(_BatchNorm):
    """Normalise each (sample, channel) over its image; no affine or running stats by default."""

    __init__ = _instance_init

    def forward(self, input: Tensor) -> Tensor:
        return _instance_forward(self, input, 4)


class InstanceNorm3d(_BatchNorm):
    """Normalise each (sample, channel) over its volume; no affine or running stats by default."""

    __init__ = _instance_init

    def forward(self, input: Tensor) -> Tensor:
        return _instance_forward(self, input, 5)


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
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
]
