"""Pooling layers: max, average, adaptive, lp pools and max unpooling in 1, 2 and 3 dims."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.nn.functional import pooling as FP
from engine.nn.modules.module import Module


def _ntuple(v: Any, n: int) -> tuple[Any, ...]:
    """PyTorch's _single/_pair/_triple: sequences kept, scalars repeated."""
    return tuple(v) if isinstance(v, list | tuple) else (v,) * n


class _MaxPoolNd(Module):
    _fn = staticmethod(FP.max_pool2d)

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        dilation: Any = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor) -> Any:
        args = (self.kernel_size, self.stride, self.padding, self.dilation)
        return self._fn(input, *args, self.ceil_mode, self.return_indices)

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class MaxPool1d(_MaxPoolNd):
    _fn = staticmethod(FP.max_pool1d)


class MaxPool2d(_MaxPoolNd):
    _fn = staticmethod(FP.max_pool2d)


class MaxPool3d(_MaxPoolNd):
    _fn = staticmethod(FP.max_pool3d)


class _AvgPoolNd(Module):
    _fn = staticmethod(FP.avg_pool2d)

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:
        args = (self.kernel_size, self.stride, self.padding, self.ceil_mode)
        return self._fn(input, *args, self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    """1d average pooling; it keeps its sizes as 1-tuples and has no divisor_override."""

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)
        self.kernel_size, self.padding = _ntuple(kernel_size, 1), _ntuple(padding, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)

    def forward(self, input: Tensor) -> Tensor:
        args = (self.kernel_size, self.stride, self.padding, self.ceil_mode)
        return FP.avg_pool1d(input, *args, self.count_include_pad)


class AvgPool2d(_AvgPoolNd):
    _fn = staticmethod(FP.avg_pool2d)


class AvgPool3d(_AvgPoolNd):
    _fn = staticmethod(FP.avg_pool3d)


class _AdaptiveAvgPoolNd(Module):
    _fn = staticmethod(FP.adaptive_avg_pool2d)

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return self._fn(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    _fn = staticmethod(FP.adaptive_avg_pool1d)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    _fn = staticmethod(FP.adaptive_avg_pool2d)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    _fn = staticmethod(FP.adaptive_avg_pool3d)


class _AdaptiveMaxPoolNd(Module):
    _fn = staticmethod(FP.adaptive_max_pool2d)

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input: Tensor) -> Any:
        return self._fn(input, self.output_size, self.return_indices)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    _fn = staticmethod(FP.adaptive_max_pool1d)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    _fn = staticmethod(FP.adaptive_max_pool2d)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    _fn = staticmethod(FP.adaptive_max_pool3d)


class _MaxUnpoolNd(Module):
    _fn = staticmethod(FP.max_unpool2d)
    _n = 2

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, self._n)
        self.stride = _ntuple(stride if stride is not None else kernel_size, self._n)
        self.padding = _ntuple(padding, self._n)

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        args = (self.kernel_size, self.stride, self.padding, output_size)
        return self._fn(input, indices, *args)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    _fn, _n = staticmethod(FP.max_unpool1d), 1


class MaxUnpool2d(_MaxUnpoolNd):
    _fn, _n = staticmethod(FP.max_unpool2d), 2


class MaxUnpool3d(_MaxUnpoolNd):
    _fn, _n = staticmethod(FP.max_unpool3d), 3


class _LPPoolNd(Module):
    _fn = staticmethod(FP.lp_pool2d)

    def __init__(
        self, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
    ) -> None:
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def forward(self, input: Tensor) -> Tensor:
        args = (self.norm_type, self.kernel_size, self.stride, self.ceil_mode)
        return self._fn(input, *args)

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
            f"ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPoolNd):
    _fn = staticmethod(FP.lp_pool1d)


class LPPool2d(_LPPoolNd):
    _fn = staticmethod(FP.lp_pool2d)


class LPPool3d(_LPPoolNd):
    _fn = staticmethod(FP.lp_pool3d)


__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "LPPool1d",
    "LPPool2d", "LPPool3d", "MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d",
    "MaxUnpool3d",
]  # fmt: skip


class _FractionalMaxPoolNd(Module):
    _fn = staticmethod(FP.fractional_max_pool2d)
    _n = 2

    def __init__(
        self,
        kernel_size: Any,
        output_size: Any = None,
        output_ratio: Any = None,
        return_indices: bool = False,
        _random_samples: Any = None,
    ) -> None:
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _ntuple(kernel_size, self._n)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _ntuple(output_size, self._n) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, self._n) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(
                f"{name} requires specifying either an output size, or a pooling ratio"
            )
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor) -> Any:
        args = (self.kernel_size, self.output_size, self.output_ratio, self.return_indices)
        return self._fn(input, *args, _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    _fn, _n = staticmethod(FP.fractional_max_pool2d), 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    _fn, _n = staticmethod(FP.fractional_max_pool3d), 3


__all__ += ["FractionalMaxPool2d", "FractionalMaxPool3d"]
