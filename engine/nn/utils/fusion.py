"""`torch.nn.utils.fusion`: a convolution or linear layer and the BatchNorm after it folded
into one layer (for inference): w' = w * gamma / sqrt(var + eps) per output channel,
b' = (b - mean) * gamma / sqrt(var + eps) + beta.
"""

from __future__ import annotations

import copy

from engine._tensor import Tensor
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter


def _eval_only(layer: Module, bn: Module) -> None:
    if layer.training or bn.training:  # raised, not asserted: it holds under python -O too
        raise AssertionError("Fusion only for eval!")


def _with_stats(bn: Module) -> None:
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")


def fuse_conv_bn_eval(conv: Module, bn: Module, transpose: bool = False) -> Module:
    """A copy of `conv` computing `bn(conv(x))` (both in eval mode)."""
    _eval_only(conv, bn)
    fused = copy.deepcopy(conv)
    _with_stats(bn)
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias,
        transpose,
    )  # fmt: skip
    return fused


def fuse_conv_bn_weights(
    conv_w: Tensor, conv_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor, bn_eps: float,
    bn_w: Tensor | None, bn_b: Tensor | None, transpose: bool = False,
) -> tuple[Parameter, Parameter]:  # fmt: skip
    """The fused convolution's (weight, bias), as Parameters."""
    from engine._creation import ones_like, zeros_like

    w_dtype = conv_w.dtype
    b_dtype = conv_b.dtype if conv_b is not None else w_dtype
    conv_b = zeros_like(bn_rm) if conv_b is None else conv_b
    bn_w = ones_like(bn_rm) if bn_w is None else bn_w
    bn_b = zeros_like(bn_rm) if bn_b is None else bn_b
    rsqrt = (bn_rv + bn_eps).rsqrt()
    rest = [1] * (conv_w.dim() - 2)
    shape = [1, -1, *rest] if transpose else [-1, 1, *rest]
    w = (conv_w * (bn_w * rsqrt).reshape(shape)).to(dtype=w_dtype)
    b = ((conv_b - bn_rm) * rsqrt * bn_w + bn_b).to(dtype=b_dtype)
    return Parameter(w, conv_w.requires_grad), Parameter(b, conv_b.requires_grad)


def fuse_linear_bn_eval(linear: Module, bn: Module) -> Module:
    """A copy of `linear` computing `bn(linear(x))` (both in eval mode)."""
    _eval_only(linear, bn)
    fused = copy.deepcopy(linear)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
            f"linear.out_features={linear.out_features} and bn.num_features={bn.num_features}"
        )
    _with_stats(bn)
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias
    )
    return fused


def fuse_linear_bn_weights(
    linear_w: Tensor, linear_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor, bn_eps: float,
    bn_w: Tensor, bn_b: Tensor,
) -> tuple[Parameter, Parameter]:  # fmt: skip
    """The fused linear layer's (weight, bias), as Parameters."""
    from engine._creation import zeros_like

    w_dtype = linear_w.dtype
    b_dtype = linear_b.dtype if linear_b is not None else w_dtype
    linear_b = zeros_like(bn_rm) if linear_b is None else linear_b
    scale = bn_w * (bn_rv + bn_eps).rsqrt()
    w = linear_w * scale.unsqueeze(-1).to(dtype=w_dtype)
    b = ((linear_b - bn_rm) * scale + bn_b).to(dtype=b_dtype)
    return Parameter(w, linear_w.requires_grad), Parameter(b, linear_b.requires_grad)


__all__ = [
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
]
