"""More layer functions of `torch.nn.functional`: 3d and alpha dropout, rrelu, channel shuffle,
local response norm and the deprecated upsample_* spellings."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.ops import nn_channel

_ALPHA = 1.7580993408473766  # SELU's alpha * scale: alpha dropout keeps SELU's fixed point


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout3d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zero whole (depth, height, width) channels; 4D input is one unbatched sample."""
    from engine.nn._functional_extra import _feature_dropout

    _check_p(p)
    if input.ndim not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {input.ndim}-D input to dropout3d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            "this warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 4D or 5D inputs).",
            stacklevel=2,
        )
    if input.ndim == 5:
        return _feature_dropout(input, p, training, inplace)
    out = _feature_dropout(input.unsqueeze(0), p, training, inplace)  # type: ignore[attr-defined]
    return out.squeeze(0)  # type: ignore[attr-defined, no-any-return]


def _alpha_dropout(x: Tensor, p: float, training: bool, feature: bool) -> Tensor:
    """ATen's `_dropout_impl` with alpha=True: x * noise + b, noise from bernoulli_(1 - p)."""
    from engine._generator import default_generator

    _check_p(p)
    if p == 0 or not training or x._d.size == 0:
        return x
    dt = x._d.dtype
    if p == 1:
        return x * make(np.zeros((), dt), False, None, 0)  # type: ignore[no-any-return]
    shape = (*x.shape[:2], *(1,) * (x.ndim - 2)) if feature else tuple(x.shape)
    keep = default_generator.bernoulli_scalar(math.prod(shape), 1.0 - p).reshape(shape)
    noise = keep.astype(dt)
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    # the scalars are cast to the tensor's type before each in-place op, as on CPU
    b = (noise - dt.type(1)) * dt.type(_ALPHA * a) + dt.type(_ALPHA * a * p)
    noise = noise * dt.type(a)
    out = x * make(noise, False, None, 0) + make(b.astype(dt), False, None, 0)
    return out  # type: ignore[no-any-return]


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


def rrelu(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Leaky ReLU with a random slope in [lower, upper] per negative element while training
    ((lower + upper) / 2 in eval)."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    out = nn_channel.rrelu_with_noise(input, lower, upper, training)
    if inplace:
        from engine.ops._core import check_inplace, rebase

        check_inplace(input)
        return rebase(input, out)
    return out


def rrelu_(
    input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False
) -> Tensor:
    """rrelu in place."""
    return rrelu(input, lower, upper, training, True)


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Interleave the channels of `groups` groups."""
    return nn_channel.channel_shuffle(input, groups)


native_channel_shuffle = channel_shuffle


def local_response_norm(
    input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0
) -> Tensor:
    """x / (k + alpha * mean of x^2 over `size` neighbouring channels)^beta (PyTorch's
    composition: pad and average-pool the squares)."""
    from engine.nn._functional_more import pad
    from engine.nn._functional_pool import avg_pool2d, avg_pool3d

    dim = input.ndim
    if dim < 3:
        raise ValueError(
            f"Expected 3D or higher dimensionality                          input (got {dim} "
            "dimensions)"
        )
    if input._d.size == 0:
        return input
    div: Any = input.mul(input)  # type: ignore[attr-defined]
    if dim == 3:
        div = pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div  # type: ignore[no-any-return]


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    from engine.nn._functional_extra import interpolate

    warnings.warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    from engine.nn._functional_extra import interpolate

    warnings.warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def pad_circular(x: Tensor, pad: tuple[int, ...]) -> Tensor:
    """ATen's `_pad_circular`: copy x into an empty tensor, then copy its wrapped edges in,
    slice by slice, so the graph is PyTorch's chain of CopySlices."""
    from engine._creation import empty

    shape, nd = list(x.shape), len(pad) // 2
    lead = len(shape) - nd
    if lead not in (1, 2):
        raise RuntimeError(
            "Invalid padding size, expected 1 or 2 non-padded dimensions, which would be "
            f"equivalent to padding of length {(len(shape) - 1) * 2} or {(len(shape) - 2) * 2} "
            f"respectively but got {len(pad)}"
        )
    out_shape = list(shape)
    for i in range(nd):
        left, right, size = pad[2 * i], pad[2 * i + 1], shape[-i - 1]
        if left > size or right > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        out_shape[-i - 1] = size + left + right
        if out_shape[-i - 1] <= 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out: Any = empty(out_shape, dtype=x.dtype)
    out_slice, in_slice = out, x

    def cut(t: Any, dim: int, start: int, stop: int) -> Any:
        return t.narrow(dim, start, stop - start)

    for i in range(nd):
        dim, left, right = nd - i + lead - 1, pad[2 * i], pad[2 * i + 1]
        out_slice = cut(out_slice, dim, max(left, 0), out_shape[dim] - max(right, 0))
        in_slice = cut(in_slice, dim, max(-left, 0), shape[dim] - max(-right, 0))
    out_slice.copy_(in_slice)
    for i in range(nd):  # the left pad, then the right one (corners are written twice)
        dim, left, right = nd - i + lead - 1, pad[2 * i], pad[2 * i + 1]
        n = out_shape[dim]
        if left > 0:
            cut(out, dim, 0, left).copy_(cut(out, dim, n - left - max(right, 0), n - max(right, 0)))
        if right > 0:
            cut(out, dim, n - right, n).copy_(cut(out, dim, max(left, 0), max(left, 0) + right))
    return out  # type: ignore[no-any-return]


def gumbel_softmax(
    logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1
) -> Tensor:
    """Softmax of (logits + Gumbel noise) / tau; `hard` gives one-hot values with the soft
    gradient (the straight-through estimator)."""
    from engine._creation import empty_like, zeros_like

    gumbels: Any = -empty_like(logits).exponential_().log()  # type: ignore[attr-defined]
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft  # type: ignore[no-any-return]
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits).scatter_(dim, index, 1.0)  # type: ignore[attr-defined]
    return y_hard - y_soft.detach() + y_soft  # type: ignore[no-any-return]


_ALIGN_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details."
)


def affine_grid(theta: Tensor, size: Any, align_corners: bool | None = None) -> Tensor:
    """The (N, H, W, 2) grid of an affine map theta (N, 2, 3), for `grid_sample`."""
    from engine.ops import nn_grid

    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
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
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
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
    lp = log_probs.unsqueeze(1) if unbatched else log_probs  # type: ignore[attr-defined]
    tg = targets.unsqueeze(0) if unbatched and targets.ndim == 1 else targets  # type: ignore[attr-defined]
    tl = _lengths(target_lengths)
    res: Any = nn_ctc.ctc_loss(lp, tg, _lengths(input_lengths), tl, blank, zero_infinity)
    if zero_infinity:
        zero = _tensor(0.0, dtype=res.dtype)
        res = zero.where(res == float("inf"), res)  # where(res == inf, 0, res), as ATen
    if reduction == "mean":
        return (res / _tensor(tl, dtype=res.dtype).clamp_min(1)).mean()  # type: ignore[no-any-return]
    if reduction == "sum":
        return res.sum()  # type: ignore[no-any-return]
    return res.squeeze(0) if unbatched else res  # type: ignore[no-any-return]
