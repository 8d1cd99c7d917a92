"""The layer-shaped parts of `torch.nn.functional`: convolution, pooling, normalisation,
bilinear, padding, `normalize`, `one_hot`."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.ops import nn_conv, nn_norm
from engine.ops.nn_extra import clamp_min, pad_nd, trilinear


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
        x = x.unsqueeze(0)  # type: ignore[attr-defined]
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
    return out.squeeze(0) if unbatched else out  # type: ignore[attr-defined, no-any-return]


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
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3)


def _conv_transpose(x: Tensor, w: Tensor, b: Tensor | None, args: tuple[Any, ...], nd: int) -> Any:
    """The adjoint of conv{nd}d; args are (stride, padding, output_padding, groups, dilation)."""
    s, p, op, d = (_tup(v, nd) for v in (args[0], args[1], args[2], args[4]))
    s2, p2, d2, op2 = nn_conv._as2d(s, tuple((a, a) for a in p), d, op)
    unbatched = x.ndim == nd + 1
    if unbatched:
        x = x.unsqueeze(0)  # type: ignore[attr-defined]
    if x.ndim != nd + 2 or x.shape[1] != w.shape[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(w.shape)}, expected input{list(x.shape)} "
            f"to have {w.shape[0]} channels, but got {x.shape[1]} channels instead"
        )
    out = nn_conv.convolution(x, w, b, s2, p2, d2, True, op2, args[3])
    return out.squeeze(0) if unbatched else out  # type: ignore[attr-defined]


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
    args = (stride, padding, output_padding, groups, dilation)
    return _conv_transpose(input, weight, bias, args, 3)  # type: ignore[no-any-return]


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise each channel by batch statistics (training) or running ones (eval)."""
    if training:
        shape = input.shape
        n = shape[0]
        for s in shape[2:]:
            n *= s
        if n == 1:
            raise ValueError(
                f"Expected more than 1 value per channel when training, got input size {shape}"
            )
    elif running_mean is None or running_var is None:
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    return nn_norm.native_batch_norm(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )


def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise over the trailing `normalized_shape` dimensions."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    return nn_norm.native_layer_norm(input, shape, weight, bias, eps)


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise channel groups of each sample."""
    return nn_norm.native_group_norm(input, num_groups, weight, bias, eps)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """x1^T A x2 + b for each output feature."""
    # PyTorch flattens both inputs to 2d (reshape: views), then reshapes the result back
    shape = (*input1.shape[:-1], weight.shape[0])
    a = input1.reshape(-1, input1.shape[-1])  # type: ignore[attr-defined]
    b = input2.reshape(-1, input2.shape[-1])  # type: ignore[attr-defined]
    out = trilinear(a, weight, b).reshape(shape)
    return out if bias is None else out + bias  # type: ignore[no-any-return]


def _check_pad_mode(x: Tensor, n: int, mode: str, value: float | None) -> None:
    """ATen's refusals for reflect/replicate/circular padding."""
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if x.ndim not in (n // 2 + 1, n // 2 + 2) or n not in (2, 4, 6):
        raise NotImplementedError(
            f"Padding size {n} is not supported for {x.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad the last len(pad)/2 dimensions ((left, right) pairs from the last dimension)."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            "got padding length " + f"{len(pad)} and input of dimension {input.ndim}"
        )
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant":
        _check_pad_mode(input, len(pad), mode, value)
    if mode == "circular":
        from engine.nn._functional_layers import pad_circular

        return pad_circular(input, tuple(int(p) for p in pad))
    return pad_nd(input, tuple(int(p) for p in pad), mode, 0.0 if value is None else value)


def normalize(
    input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Any = None
) -> Tensor:
    """input / max(||input||_p along dim, eps)."""
    denom = clamp_min(input.norm(p, dim, keepdim=True), eps).expand_as(input)  # type: ignore[attr-defined]
    return input / denom  # type: ignore[no-any-return]


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 one-hot encoding along a new last dimension."""
    a = tensor._d
    if a.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if a.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(a.max()) + 1
    if a.size and a.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if a.size and a.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = (a[..., None] == np.arange(num_classes)).astype(np.int64)
    return make(out, False, None, 0)
