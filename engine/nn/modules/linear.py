"""Identity, Linear, Bilinear, and the shape/regularisation layers Flatten, Unflatten,
Dropout, Embedding."""

from __future__ import annotations

import math
from typing import Any

from engine import _creation
from engine._tensor import Tensor
from engine.nn import functional as F
from engine.nn import init
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter


def empty_param(*shape: int, dtype: Any = None) -> Parameter:
    """An uninitialised parameter (filled by the layer's `reset_parameters`)."""
    return Parameter(_creation.empty(tuple(shape), dtype=dtype))


class Identity(Module):
    """Returns its input."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    """y = x W^T + b.

    >>> torch.nn.Linear(3, 2)
    Linear(in_features=3, out_features=2, bias=True)
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = empty_param(out_features, in_features, dtype=dtype)
        if bias:
            self.bias = empty_param(out_features, dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # kaiming_uniform_(a=sqrt(5)) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)), as the bias
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1]
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Bilinear(Module):
    """y = x1^T A x2 + b."""

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        self.weight = empty_param(out_features, in1_features, in2_features, dtype=dtype)
        if bias:
            self.bias = empty_param(out_features, dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )


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


__all__ = [
    "Bilinear",
    "Identity",
    "LazyLinear",
    "Linear",
]
