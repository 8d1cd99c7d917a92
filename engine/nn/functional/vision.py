"""Resampling and grids: interpolate, upsample*, affine_grid, grid_sample, channel_shuffle."""

from __future__ import annotations

import math
from typing import Any

from engine._tensor import Tensor
from engine._warn import warn
from engine.ops import nn_channel

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
    """Resize the spatial dims: 'nearest', 'nearest-exact', 'area', 'linear' (3D), 'bilinear'
    and 'bicubic' (4D), 'trilinear' (5D)."""
    from engine.ops.nn_upsample import upsample

    n = input.ndim - 2
    if mode in ("nearest", "nearest-exact", "area") and align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear"
        )
    if mode in _LINEAR_MODES and input.ndim != _LINEAR_MODES[mode]:
        need = _LINEAR_MODES[mode]
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs {need}D input")
    known = mode in ("nearest", "nearest-exact", "area") or mode in _LINEAR_MODES
    if not known and not (mode == "bicubic" and input.ndim == 4):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for the "
            "modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})"
        )
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
    if mode == "area":  # PyTorch's area mode is adaptive average pooling to the output size
        from engine.nn import functional as F

        pool = (F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, F.adaptive_avg_pool3d)[n - 1]
        return pool(input, out)
    return upsample(input, tuple(out), mode, bool(align_corners), scales)


def upsample(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Tensor:
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    pass

    warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    pass

    warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
    )
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


_ALIGN_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details."
)


def affine_grid(theta: Tensor, size: Any, align_corners: bool | None = None) -> Tensor:
    """The (N, H, W, 2) grid of an affine map theta (N, 2, 3), for `grid_sample`."""
    from engine.ops import nn_grid

    if align_corners is None:
        warn(_ALIGN_WARNING)
        align_corners = False
    size = tuple(int(s) for s in size)
    if len(size) == 5:
        raise NotImplementedError("3D affine_grid is not supported by the engine")
    if len(size) != 4:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}."
        )
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (2, 3):
        raise ValueError(
            f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got "
            f"{theta.shape}."
        )
    return nn_grid.affine_grid(theta, size, align_corners)


def grid_sample(
    input: Tensor,
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Tensor:
    """Sample input at the grid's normalised (x, y) locations."""
    from engine.ops import nn_grid

    if mode not in nn_grid.MODES:
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
            f"'bicubic', but got: '{mode}'"
        )
    if padding_mode not in nn_grid.PADDINGS:
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    if align_corners is None:
        warn(_ALIGN_WARNING)
        align_corners = False
    if input.shape[0] != grid.shape[0] or input.ndim != grid.ndim:
        raise RuntimeError(
            "grid_sampler(): expected grid and input to have same batch size, but got input "
            f"with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
        )
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {input.ndim - 2} in last dimension, "
            f"but got grid with sizes {list(grid.shape)}"
        )
    if input.ndim != 4 or mode == "bicubic":
        raise NotImplementedError("grid_sample: only 4D input with bilinear/nearest modes")
    return nn_grid.grid_sample(
        input, grid, nn_grid.MODES[mode], nn_grid.PADDINGS[padding_mode], align_corners
    )


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Interleave the channels of `groups` groups."""
    return nn_channel.channel_shuffle(input, groups)


native_channel_shuffle = channel_shuffle
