"""`torchvision.ops.misc`: convolution + normalisation + activation as one Sequential (its
children are numbered 0, 1, 2, so state_dict keys read `features.0.0.weight`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import nn
from engine.nn.modules.conv import Conv2d


class ConvNormActivation(nn.Sequential):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any = 3,
        stride: Any = 1,
        padding: Any = None,
        groups: int = 1,
        norm_layer: Callable[..., nn.Module] | None = nn.BatchNorm2d,
        activation_layer: Callable[..., nn.Module] | None = nn.ReLU,
        dilation: Any = 1,
        inplace: bool | None = True,
        bias: bool | None = None,
        conv_layer: Callable[..., nn.Module] = Conv2d,
    ) -> None:
        if padding is None:
            if isinstance(kernel_size, int) and isinstance(dilation, int):
                padding = (kernel_size - 1) // 2 * dilation
            else:
                n = len(kernel_size) if isinstance(kernel_size, tuple | list) else len(dilation)
                ks = kernel_size if isinstance(kernel_size, tuple | list) else (kernel_size,) * n
                dl = dilation if isinstance(dilation, tuple | list) else (dilation,) * n
                padding = tuple((ks[i] - 1) // 2 * dl[i] for i in range(n))
        if bias is None:
            bias = norm_layer is None
        layers: list[nn.Module] = [
            conv_layer(
                in_channels,
                out_channels,
                kernel_size,
                stride,
                padding,
                dilation=dilation,
                groups=groups,
                bias=bias,
            )
        ]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            params = {} if inplace is None else {"inplace": inplace}
            layers.append(activation_layer(**params))
        super().__init__(*layers)
        self.out_channels = out_channels


class Conv2dNormActivation(ConvNormActivation):
    """Conv2d, then a norm layer (BatchNorm2d), then an activation (ReLU)."""


ConvNormActivation.__module__ = Conv2dNormActivation.__module__ = "torchvision.ops.misc"
