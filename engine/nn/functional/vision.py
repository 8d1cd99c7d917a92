"""Resampling and grids: interpolate, upsample*, affine_grid, grid_sample, channel_shuffle."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine._warn import warn
from engine.ops import nn_channel

# the modes each input rank has, in the order PyTorch's `interpolate` tries them
_MODES = {
    3: ("nearest", "nearest-exact", "area", "linear"),
    4: ("nearest", "nearest-exact", "area", "bilinear", "bicubic", "lanczos"),
    5: ("nearest", "nearest-exact", "area", "trilinear"),
}
_WRONG_RANK = {"linear": 3, "bilinear": 4, "trilinear": 5}  # named errors for these only


def interpolate(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resize the spatial dims: 'nearest', 'nearest-exact', 'area', 'linear' (3D), 'bilinear',
    'bicubic' and 'lanczos' (4D; antialias for these three), 'trilinear' (5D). Arguments are
    checked in PyTorch's order, so the first error is PyTorch's."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: "
                "linear | bilinear | bicubic | trilinear"
            )
    elif align_corners is None:
        align_corners = False
    out, scales = _output_size(input, size, scale_factor, recompute_scale_factor, mode)
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
            "requires a 4-D tensor as input"
        )
    if mode not in _MODES.get(input.ndim, ()):
        need = _WRONG_RANK.get(mode)
        if need is not None and input.ndim in _MODES:
            raise NotImplementedError(
                f"Got {input.ndim}D input, but {mode} mode needs {need}D input"
            )
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for the "
            "modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})"
        )
    from engine.ops.nn_upsample import upsample

    if mode == "area":  # PyTorch's area mode is adaptive average pooling to the output size
        from engine.nn import functional as F

        pool = (F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, F.adaptive_avg_pool3d)[input.ndim - 3]
        return pool(input, out)
    if mode == "lanczos":
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    return upsample(input, tuple(out), mode, bool(align_corners), scales, antialias)


def _output_size(
    input: Tensor, size: Any, scale_factor: Any, recompute: bool | None, mode: str
) -> tuple[list[int], list[float] | None]:
    """PyTorch's `interpolate` size handling: the output size, and the scales the kernel uses
    (None when the size was given or recomputed)."""
    n = input.ndim - 2
    shape = list(input.shape[2:])
    scales: list[float] | None = None
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, list | tuple):
            if len(size) != n:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {shape} and output size of {size}. Please "
                    "provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                    "(o1, o2, ...,oK) format."
                )
            if not all(_is_integer(s) for s in size):
                raise TypeError(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                    "Tuple[int, int, int], but got size with types "
                    f"{[type(s) for s in size]}"
                )
            out = [int(s) for s in size]
        else:
            out = [int(size)] * n
        if recompute:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        return out, None
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, list | tuple):
        if len(scale_factor) != n:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but "
                f"got input with spatial dimensions of {shape} and scale_factor of shape "
                f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                "and scale_factor in (s1, s2, ...,sK) format."
            )
        scales = [float(s) for s in scale_factor]
    else:
        scales = [float(scale_factor)] * n
    out = [math.floor(float(d) * s) for d, s in zip(shape, scales)]
    if recompute or mode == "area":  # area always works from the (integer) output size
        scales = None
    return out, scales


def _is_integer(x: Any) -> bool:
    """PyTorch's `_is_integer`: an int, a NumPy integer or an integer tensor."""
    if isinstance(x, int | np.integer):
        return True
    return isinstance(x, Tensor) and not x.is_floating_point()


def upsample(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Tensor:
    warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
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
    """The (N, H, W, 2) grid of affine maps theta (N, 2, 3), or the (N, D, H, W, 3) one of
    theta (N, 3, 4), for `grid_sample`."""
    from engine.ops import nn_grid

    if align_corners is None:
        warn(_ALIGN_WARNING)
        align_corners = False
    size = tuple(int(s) for s in size)
    if len(size) not in (4, 5):
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}."
        )
    k = len(size) - 2
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (k, k + 1):
        raise ValueError(
            f"Expected a batch of {k}D affine matrices of shape Nx{k}x{k + 1} for size {size}. "
            f"Got {theta.shape}."
        )
    return nn_grid.affine_grid(theta, size, align_corners)


def grid_sample(
    input: Tensor,
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Tensor:
    """Sample input at the grid's normalised (x, y) or (x, y, z) locations."""
    from engine.ops import nn_grid, nn_grid_3d

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
    mode_id, pad_id = nn_grid.MODES[mode], nn_grid.PADDINGS[padding_mode]
    if input.ndim == 5:
        if mode == "bicubic":
            raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
        return nn_grid_3d.grid_sample_3d(input, grid, mode_id, pad_id, align_corners)
    if input.ndim != 4:
        raise NotImplementedError("grid_sample: only 4D and 5D input")
    return nn_grid.grid_sample(input, grid, mode_id, pad_id, align_corners)


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Interleave the channels of `groups` groups."""
    return nn_channel.channel_shuffle(input, groups)


native_channel_shuffle = channel_shuffle
