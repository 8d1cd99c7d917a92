"""Convolutions: conv1d/2d/3d and conv_transpose1d/2d/3d."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.ops import autocast as _autocast
from engine.ops import nn_conv
from engine.ops.nn_pad import pad_nd


def _tup(v: Any, n: int, name: str = "") -> tuple[int, ...]:
    if isinstance(v, list | tuple):
        if len(v) == 1:
            return (int(v[0]),) * n
        return tuple(int(a) for a in v)
    return (int(v),) * n


def _conv_pads(
    padding: Any, k: tuple[int, ...], d: tuple[int, ...], stride: tuple[int, ...]
) -> Any:
    if isinstance(padding, str):
        if padding == "valid":
            return tuple((0, 0) for _ in k)
        if padding != "same":
            raise ValueError(
                f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}"
            )
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        return tuple((di * (ki - 1) // 2,) * 2 for ki, di in zip(k, d))
    return tuple((p, p) for p in _tup(padding, len(k)))


def _check_channels(x: Tensor, w: Tensor, groups: int, nd: int) -> None:
    if x.ndim != nd + 2:
        raise RuntimeError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to conv{nd}d, but got "
            f"input of size: {list(x.shape)}"
        )
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(w.shape)}, expected input"
            f"{list(x.shape)} to have {w.shape[1] * groups} channels, but got {x.shape[1]} "
            "channels instead"
        )


def _conv(
    x: Tensor,
    w: Tensor,
    b: Tensor | None,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
    nd: int,
) -> Tensor:
    unbatched = x.ndim == nd + 1
    if unbatched:
        x = x.unsqueeze(0)
    _check_channels(x, w, groups, nd)
    k = tuple(w.shape[2:])
    s, d = _tup(stride, nd), _tup(dilation, nd)
    pads = _conv_pads(padding, k, d, s)
    if padding == "same":
        # an odd total padding: PyTorch pads the extra one on the right with constant_pad_nd
        extra = [di * (ki - 1) % 2 for ki, di in zip(k, d)]
        if any(extra):
            x = pad_nd(x, tuple(v for e in reversed(extra) for v in (0, e)), "constant", 0.0)
    sizes = [x.shape[2 + i] + sum(pads[i]) for i in range(nd)]
    eff = [d[i] * (k[i] - 1) + 1 for i in range(nd)]
    if any(a < b for a, b in zip(sizes, eff)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, sizes))}). Kernel "
            f"size: ({' x '.join(map(str, eff))}). Kernel size can't be greater than actual "
            "input size"
        )
    s2, p2, d2, op2 = nn_conv._as2d(s, pads, d, (0,) * nd)
    out = nn_conv.convolution(x, w, b, s2, p2, d2, False, op2, groups)
    return out.squeeze(0) if unbatched else out


def conv1d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """1d cross-correlation over (N, C, L)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, weight, bias = _autocast.lower(input, weight, bias)
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """2d cross-correlation over (N, C, H, W)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, weight, bias = _autocast.lower(input, weight, bias)
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


def conv3d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """3d cross-correlation over (N, C, D, H, W)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, weight, bias = _autocast.lower(input, weight, bias)
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3)


def _conv_transpose(x: Tensor, w: Tensor, b: Tensor | None, args: tuple[Any, ...], nd: int) -> Any:
    """The adjoint of conv{nd}d; args are (stride, padding, output_padding, groups, dilation)."""
    s, p, op, d = (_tup(v, nd) for v in (args[0], args[1], args[2], args[4]))
    s2, p2, d2, op2 = nn_conv._as2d(s, tuple((a, a) for a in p), d, op)
    if any(o >= st and o >= di for o, st, di in zip(op2, s2, d2)):
        axes = ("depth", "height", "width")[-len(op2) :]
        got = [f"{what}_{a}: {v}" for what, vs in (("output_padding", op2), ("stride", s2),
               ("dilation", d2)) for a, v in zip(axes, vs)]  # fmt: skip
        raise RuntimeError(
            "output padding must be smaller than either stride or dilation, but got "
            + " ".join(got)
        )
    unbatched = x.ndim == nd + 1
    if unbatched:
        x = x.unsqueeze(0)
    if x.ndim != nd + 2 or x.shape[1] != w.shape[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(w.shape)}, expected input{list(x.shape)} "
            f"to have {w.shape[0]} channels, but got {x.shape[1]} channels instead"
        )
    out = nn_conv.convolution(x, w, b, s2, p2, d2, True, op2, args[3])
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """The adjoint of conv1d (run as conv_transpose2d with height 1)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, weight, bias = _autocast.lower(input, weight, bias)
    args = (stride, padding, output_padding, groups, dilation)
    return _conv_transpose(input, weight, bias, args, 1)  # type: ignore[no-any-return]


def conv_transpose2d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """The adjoint of conv2d (a "deconvolution")."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, weight, bias = _autocast.lower(input, weight, bias)
    args = (stride, padding, output_padding, groups, dilation)
    return _conv_transpose(input, weight, bias, args, 2)  # type: ignore[no-any-return]


def conv_transpose3d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """The adjoint of conv3d."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, weight, bias = _autocast.lower(input, weight, bias)
    args = (stride, padding, output_padding, groups, dilation)
    return _conv_transpose(input, weight, bias, args, 3)  # type: ignore[no-any-return]
