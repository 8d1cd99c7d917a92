"""Activation functions of `torch.nn.functional`: relu, gelu, softmax, the shrinks, prelu,
rrelu, gumbel_softmax..."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine._warn import warn
from engine.ops import nn_act, nn_channel, nn_ops
from engine.ops._core import rebase


def _inplace(x: Tensor, out: Tensor, inplace: bool) -> Tensor:
    """PyTorch's `inplace=True`: write the result into `x` and give `x` its history."""
    if not inplace:
        return out
    from engine.ops._core import check_inplace

    check_inplace(x)
    return rebase(x, out)


# -- activations --------------------------------------------------------------------------
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(0, x)."""
    return _inplace(input, input.relu(), inplace)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    if inplace:
        return _inplace(input, nn_ops.leaky_relu_result(input, negative_slope), True)
    return nn_ops.leaky_relu(input, negative_slope)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    return nn_ops.gelu(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_ops.silu(input), inplace)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return _inplace(input, nn_ops.elu_result(input, alpha, 1.0, 1.0, False), True)
    return nn_ops.elu(input, alpha)


_SELU_ALPHA = 1.6732632423543772848170429916717


_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return _inplace(input, nn_ops.elu_result(input, _SELU_ALPHA, _SELU_SCALE, 1.0, False), True)
    return nn_ops.elu(input, _SELU_ALPHA, _SELU_SCALE)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return _inplace(input, nn_ops.elu_result(input, alpha, 1.0, 1.0 / alpha, True), True)
    return nn_ops.elu(input, alpha, 1.0, 1.0 / alpha, celu=True)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return nn_ops.softplus(input, beta, threshold)


def hardtanh(
    input: Tensor,
    min_val: float = -1.0,
    max_val: float = 1.0,
    inplace: bool = False,
) -> Tensor:
    return _inplace(input, nn_ops.hardtanh(input, min_val, max_val), inplace)


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def softsign(input: Tensor) -> Tensor:
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    return input - input.tanh()


def logsigmoid(input: Tensor) -> Tensor:
    return nn_act.log_sigmoid(input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_act.mish(input), inplace)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_act.hardsigmoid(input), inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_act.hardswish(input), inplace)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """a * sigmoid(b) for the halves of input along dim (one GluBackward0 node)."""
    from engine.ops.nn_channel import glu as _glu

    return _glu(input, dim)


def _softmax_dim(ndim: int, name: str = "softmax") -> int:
    warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.",
        UserWarning,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """exp(x) / sum(exp(x)) along `dim`."""
    if dim is None:
        dim = _softmax_dim(input.ndim)
    return input.softmax(dim, dtype=dtype)


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """x - logsumexp(x) along `dim`."""
    if dim is None:
        dim = _softmax_dim(input.ndim, "log_softmax")
    return input.log_softmax(dim, dtype=dtype)


def softmin(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.ndim, "softmin")
    return softmax(-input, dim, dtype=dtype)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_act.threshold(input, threshold, value), inplace)


# the `F.relu_(x)` spellings of `inplace=True`
def relu_(input: Tensor) -> Tensor:
    return relu(input, inplace=True)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return elu(input, alpha, inplace=True)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return globals()["threshold"](input, threshold, value, inplace=True)  # type: ignore[no-any-return]


def selu_(input: Tensor) -> Tensor:
    return selu(input, inplace=True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return celu(input, alpha, inplace=True)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return nn_act.hardshrink(input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return nn_act.softshrink(input, lambd)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    return nn_act.prelu(input, weight)


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


def gumbel_softmax(
    logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1
) -> Tensor:
    """Softmax of (logits + Gumbel noise) / tau; `hard` gives one-hot values with the soft
    gradient (the straight-through estimator)."""
    from engine._creation import empty_like, zeros_like

    gumbels = -empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
