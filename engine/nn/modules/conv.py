"""Convolution layers: Conv1d/2d/3d and ConvTranspose1d/2d/3d."""

from __future__ import annotations

import math
from typing import Any

from engine._tensor import Tensor
from engine.nn import functional as F
from engine.nn import init
from engine.nn.modules.linear import empty_param
from engine.nn.modules.module import Module


def _ntuple(v: Any, n: int) -> tuple[int, ...]:
    if isinstance(v, list | tuple):
        return tuple(v)
    return (v,) * n


class _ConvNd(Module):
    """What every convolution layer shares: parameters, initialisation, repr."""

    _nd = 2

    def __init__(
        self,
        nd: int,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any,
        padding: Any,
        dilation: Any,
        transposed: bool,
        output_padding: Any,
        groups: int,
        bias: bool,
        padding_mode: str,
        dtype: Any,
    ) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}"
                )
            if padding == "same" and any(s != 1 for s in _ntuple(stride, nd)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _ntuple(kernel_size, nd)
        self.stride = _ntuple(stride, nd)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, nd)
        self.dilation = _ntuple(dilation, nd)
        self.transposed = transposed
        self.output_padding = _ntuple(output_padding, nd)
        self.groups = groups
        self.padding_mode = padding_mode
        if transposed:
            shape = (in_channels, out_channels // groups, *self.kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *self.kernel_size)
        self.weight = empty_param(*shape, dtype=dtype)
        if bias:
            self.bias = empty_param(out_channels, dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.in_channels == 0:  # a lazy layer: initialised at its first call
            return
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        nd = len(self.kernel_size)
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * nd:
            s += ", padding={padding}"
        if self.dilation != (1,) * nd:
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * nd:
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def _padded(self, input: Tensor) -> tuple[Tensor, Any]:
        if self.padding_mode == "zeros" or isinstance(self.padding, str):
            return input, self.padding
        pads: list[int] = []
        for p in reversed(self.padding):
            pads += [p, p]
        return F.pad(input, pads, mode=self.padding_mode), 0


def _conv_init(
    self: _ConvNd,
    in_channels: int,
    out_channels: int,
    kernel_size: Any,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    bias: bool = True,
    padding_mode: str = "zeros",
    device: Any = None,
    dtype: Any = None,
) -> None:
    """The constructor of Conv1d/2d/3d (their dimension is the class's `_nd`)."""
    args = (in_channels, out_channels, kernel_size, stride, padding, dilation, False, 0, groups)
    _ConvNd.__init__(self, self._nd, *args, bias, padding_mode, dtype)


def _conv_forward(self: _ConvNd, input: Tensor) -> Tensor:
    x, pad = self._padded(input)
    fn = (F.conv1d, F.conv2d, F.conv3d)[self._nd - 1]
    return fn(x, self.weight, self.bias, self.stride, pad, self.dilation, self.groups)


def _convt_init(
    self: _ConvNd,
    in_channels: int,
    out_channels: int,
    kernel_size: Any,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    bias: bool = True,
    dilation: Any = 1,
    padding_mode: str = "zeros",
    device: Any = None,
    dtype: Any = None,
) -> None:
    """The constructor of ConvTranspose1d/2d/3d."""
    if padding_mode != "zeros":
        raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
    args = (in_channels, out_channels, kernel_size, stride, padding, dilation, True)
    _ConvNd.__init__(self, self._nd, *args, output_padding, groups, bias, padding_mode, dtype)


def _convt_forward(self: _ConvNd, input: Tensor, output_size: Any = None) -> Tensor:
    op = self.output_padding
    if output_size is not None:  # the output_padding that reaches the requested size
        nd, size = self._nd, list(output_size)[-self._nd :]
        sp = input.shape[-nd:]
        least = [
            (sp[i] - 1) * self.stride[i]
            - 2 * self.padding[i]
            + self.dilation[i] * (self.kernel_size[i] - 1)
            + 1
            for i in range(nd)
        ]
        op = tuple(int(size[i]) - least[i] for i in range(nd))
    fn = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[self._nd - 1]
    args = (self.stride, self.padding, op, self.groups, self.dilation)
    return fn(input, self.weight, self.bias, *args)


class Conv1d(_ConvNd):
    _nd = 1
    __init__ = _conv_init
    forward = _conv_forward


class Conv2d(_ConvNd):
    """2d convolution layer.

    >>> torch.nn.Conv2d(1, 2, 3)
    Conv2d(1, 2, kernel_size=(3, 3), stride=(1, 1))
    """

    _nd = 2
    __init__ = _conv_init
    forward = _conv_forward


class Conv3d(_ConvNd):
    _nd = 3
    __init__ = _conv_init
    forward = _conv_forward


class ConvTranspose1d(_ConvNd):
    _nd = 1
    __init__ = _convt_init
    forward = _convt_forward


class ConvTranspose2d(_ConvNd):
    _nd = 2
    __init__ = _convt_init
    forward = _convt_forward


class ConvTranspose3d(_ConvNd):
    _nd = 3
    __init__ = _convt_init
    forward = _convt_forward


def _lazy_forward(self: _ConvNd, input: Tensor, *args: Any) -> Tensor:
    """A lazy layer's call: take in_channels from the input, fill the parameters in place
    (an optimizer built earlier keeps them), initialise, and become the plain layer."""
    if self.in_channels == 0:
        from engine._creation import empty

        nd = self._nd
        if input.ndim not in (nd + 1, nd + 2):
            raise RuntimeError(
                f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
                f"{type(self).__name__}, but got input of size: {input.shape}"
            )
        self.in_channels = int(input.shape[1] if input.ndim == nd + 2 else input.shape[0])
        g, k = self.groups, self.kernel_size
        c_in, c_out = self.in_channels, self.out_channels
        shape = (c_in, c_out // g, *k) if self.transposed else (c_out, c_in // g, *k)
        self.weight.data = empty(tuple(shape), dtype=self.weight.dtype)
        if self.bias is not None:
            self.bias.data = empty(c_out, dtype=self.bias.dtype)
        self.reset_parameters()
        self.__class__ = self._becomes  # PyTorch's cls_to_become
    return self.forward(input, *args)  # type: ignore[no-any-return]


def _lazy_init(self: _ConvNd, out_channels: int, kernel_size: Any, *args: Any, **kw: Any) -> None:
    """LazyConvNd(out_channels, kernel_size, ...): the plain constructor with in_channels 0."""
    _conv_init(self, 0, out_channels, kernel_size, *args, **kw)


def _lazy_t_init(self: _ConvNd, out_channels: int, kernel_size: Any, *args: Any, **kw: Any) -> None:
    _convt_init(self, 0, out_channels, kernel_size, *args, **kw)


class LazyConv1d(_ConvNd):
    _nd, _becomes = 1, Conv1d
    __init__ = _lazy_init
    forward = _lazy_forward


class LazyConv2d(_ConvNd):
    _nd, _becomes = 2, Conv2d
    __init__ = _lazy_init
    forward = _lazy_forward


class LazyConv3d(_ConvNd):
    _nd, _becomes = 3, Conv3d
    __init__ = _lazy_init
    forward = _lazy_forward


class LazyConvTranspose1d(_ConvNd):
    _nd, _becomes = 1, ConvTranspose1d
    __init__ = _lazy_t_init
    forward = _lazy_forward


class LazyConvTranspose2d(_ConvNd):
    _nd, _becomes = 2, ConvTranspose2d
    __init__ = _lazy_t_init
    forward = _lazy_forward


class LazyConvTranspose3d(_ConvNd):
    _nd, _becomes = 3, ConvTranspose3d
    __init__ = _lazy_t_init
    forward = _lazy_forward


__all__ = [
    "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d",
    "LazyConvTranspose3d",
]  # fmt: skip
