"""More layers: 3d and alpha dropouts, RReLU, ChannelShuffle, LocalResponseNorm and the
UpsamplingNearest2d / UpsamplingBilinear2d shorthands."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.nn import _functional_layers as FL
from engine.nn.modules.extra import Upsample, ZeroPad1d
from engine.nn.modules.linear import Dropout, Linear
from engine.nn.modules.module import Module


class Dropout3d(Dropout):
    """Zero whole (depth, height, width) channels with probability p while training."""

    def forward(self, input: Tensor) -> Tensor:
        return FL.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(Dropout):
    """Dropout for SELU networks: dropped values go to SELU's negative saturation."""

    def forward(self, input: Tensor) -> Tensor:
        return FL.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(Dropout):
    """Alpha dropout of whole channels."""

    def forward(self, input: Tensor) -> Tensor:
        return FL.feature_alpha_dropout(input, self.p, self.training)


class RReLU(Module):
    """Randomized leaky ReLU."""

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input: Tensor) -> Tensor:
        return FL.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace}"


class ChannelShuffle(Module):
    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return FL.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


class LocalResponseNorm(Module):
    """Normalise each channel by its neighbours' squares."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return FL.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class CrossMapLRN2d(Module):
    """Local response normalisation across channels (the legacy Lua-torch layer)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        from engine.nn._lrn import CrossMapLRN2d as _Fn

        return _Fn.apply(input, self.size, self.alpha, self.beta, self.k)  # type: ignore[no-any-return]

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class LazyLinear(Linear):
    """A Linear whose in_features come from its first input; it then becomes a Linear.

    The parameters are empty until then and are filled in place (an optimizer built before the
    first call keeps working), drawing the same numbers as Linear's initialisation.
    """

    def __init__(
        self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None
    ) -> None:
        from engine._creation import empty
        from engine.nn.parameter import Parameter

        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self.weight = Parameter(empty(0, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(0, dtype=dtype))
        else:
            self.register_parameter("bias", None)

    def has_uninitialized_params(self) -> bool:
        return self.in_features == 0

    def forward(self, input: Tensor) -> Tensor:
        if self.in_features == 0:
            from engine._creation import empty

            self.in_features = int(input.shape[-1])
            dt = self.weight.dtype
            self.weight.data = empty(self.out_features, self.in_features, dtype=dt)
            if self.bias is not None:
                self.bias.data = empty(self.out_features, dtype=dt)
            self.reset_parameters()
            self.__class__ = Linear  # type: ignore[assignment]  # PyTorch's cls_to_become
        return Linear.forward(self, input)


class CTCLoss(Module):
    """The connectionist temporal classification loss."""

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def forward(
        self, log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any
    ) -> Tensor:
        args = (self.blank, self.reduction, self.zero_infinity)
        return FL.ctc_loss(log_probs, targets, input_lengths, target_lengths, *args)


class ZeroPad3d(ZeroPad1d):
    _dims = 3


__all__ = [
    "AlphaDropout", "CTCLoss", "ChannelShuffle", "CrossMapLRN2d", "Dropout3d",
    "FeatureAlphaDropout", "LazyLinear", "LocalResponseNorm", "RReLU", "UpsamplingBilinear2d",
    "UpsamplingNearest2d", "ZeroPad3d",
]  # fmt: skip
