"""More activations PyTorch records as one node: mish, hardswish, hardsigmoid, logsigmoid,
threshold (same machinery as engine/ops/nn_ops.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops import autocast as _autocast
from engine.ops._core import OpNode, float_array, float_kernel, record, unbroadcast
from engine.ops.nn_ops import Array, _Act, _sig, const, softplus


def _act(node: type[_Act], fn: Any, self: Tensor, kernel: str, **params: Any) -> Tensor:
    x = float_kernel(self, kernel)
    return record(
        node, np.asarray(fn(x, **params)).astype(x.dtype), (self,), {"self": self, **params}
    )


def mish(self: Tensor) -> Tensor:
    """x * tanh(softplus(x))."""
    return _act(MishBackward0, lambda x: x * np.tanh(np.logaddexp(0, x)), self, "mish_cpu")


class MishBackward0(_Act):
    __slots__ = ()
    _name = "MishBackward0"

    def composite(self, g: Tensor, x: Tensor) -> Tensor | None:
        t = softplus(x).tanh()
        return g * (t + x * x.sigmoid() * (1 - t * t))

    def deriv(self, x: Array) -> Array:
        t, s = np.tanh(np.logaddexp(0, x)), _sig(x)
        return np.asarray(t + x * (1 - t * t) * s)

    def deriv2(self, x: Array) -> Array:
        t, s = np.tanh(np.logaddexp(0, x)), _sig(x)
        return np.asarray(2 * (1 - t * t) * s + x * (1 - t * t) * s * (1 - s - 2 * t * s))


def hardswish(self: Tensor) -> Tensor:
    """x * relu6(x + 3) / 6."""
    return _act(HardswishBackward0, lambda x: x * np.clip(x + 3, 0, 6) / 6, self, "hardswish_cpu")


class HardswishBackward0(_Act):
    __slots__ = ()
    _name = "HardswishBackward0"

    def deriv(self, x: Array) -> Array:
        return np.where(x < -3, 0.0, np.where(x <= 3, x / 3 + 0.5, 1.0))

    def deriv2(self, x: Array) -> Array:
        return np.where((x > -3) & (x < 3), 1 / 3, 0.0)


def hardsigmoid(self: Tensor) -> Tensor:
    """relu6(x + 3) / 6."""
    return _act(HardsigmoidBackward0, lambda x: np.clip(x + 3, 0, 6) / 6, self, "hardsigmoid_cpu")


class HardsigmoidBackward0(_Act):
    __slots__ = ()
    _name = "HardsigmoidBackward0"
    _no_double = "hardsigmoid_backward"

    def deriv(self, x: Array) -> Array:
        return np.where((x > -3) & (x < 3), 1 / 6, 0.0)


def log_sigmoid(self: Tensor) -> Tensor:
    """log(sigmoid(x)), computed stably."""
    x = float_kernel(self, "log_sigmoid_cpu")
    out = (-np.logaddexp(0, -x)).astype(x.dtype)
    # ATen's log_sigmoid_forward also returns a buffer, exp(-|x|), that its backward saves
    buffer = make(np.exp(-np.abs(x)).astype(x.dtype), False, None, 0)
    return record(LogSigmoidBackward0, out, (self,), {"self": self, "buffer": buffer})


class LogSigmoidBackward0(_Act):
    __slots__ = ()
    _name = "LogSigmoidBackward0"

    def double_saved(self, g: Tensor, x: Tensor) -> dict[str, Any]:
        return {"buffer": self.saved("buffer"), "grad_output": g, "self": x}

    def deriv(self, x: Array) -> Array:
        return _sig(-x)

    def deriv2(self, x: Array) -> Array:
        s = _sig(x)
        return np.asarray(-s * (1 - s))


def threshold(self: Tensor, threshold: float, value: float) -> Tensor:
    """x where x > threshold, else value (an integer input stays integer)."""
    x = self._d
    if x.dtype.kind in "iu":  # threshold and value in the input's type (truncated)
        if x.dtype.kind == "u" and not 0 <= int(value) <= np.iinfo(x.dtype).max:
            ctype = f"uint{x.dtype.itemsize * 8}_t"
            raise RuntimeError(f"value cannot be converted to type {ctype} without overflow")
        out = np.where(x > int(threshold), x, int(value)).astype(x.dtype)
        return record(ThresholdBackward0, out, (self,), {"self": self, "threshold": threshold})
    return _act(
        ThresholdBackward0,
        lambda x, threshold: np.where(x > threshold, x, value),
        self,
        "threshold_cpu",
        threshold=threshold,
    )


class ThresholdBackward0(_Act):
    __slots__ = ()
    _name = "ThresholdBackward0"
    _piecewise = True

    def deriv(self, x: Array) -> Array:
        return np.asarray(x > self.saved("threshold"), dtype=x.dtype)


def hardshrink(self: Tensor, lambd: float = 0.5) -> Tensor:
    """x where |x| > lambd, else 0."""
    return _act(
        HardshrinkBackward0,
        lambda x, lambd: np.where(np.abs(x) > lambd, x, 0),
        self,
        "hardshrink_cpu",
        lambd=lambd,
    )


class HardshrinkBackward0(_Act):
    __slots__ = ()
    _name = "HardshrinkBackward0"
    _piecewise = True

    def deriv(self, x: Array) -> Array:
        return np.asarray(np.abs(x) > self.saved("lambd"), dtype=x.dtype)


def softshrink(self: Tensor, lambd: float = 0.5) -> Tensor:
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    return _act(
        SoftshrinkBackward0,
        lambda x, lambd: np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, x * 0)),
        self,
        "softshrink_check",
        lambd=lambd,
    )


class SoftshrinkBackward0(_Act):
    __slots__ = ()
    _name = "SoftshrinkBackward0"
    _piecewise = True

    def deriv(self, x: Array) -> Array:
        return np.asarray(np.abs(x) > self.saved("lambd"), dtype=x.dtype)


def prelu(self: Tensor, weight: Tensor) -> Tensor:
    """max(0, x) + weight * min(0, x), one weight per channel (dim 1; 1-D input has one)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        self, weight = _autocast.lower(self, weight)
    if self.dtype != weight.dtype:
        names = (_dtype.SCALAR_NAMES[t.dtype.name] for t in (self, weight))
        raise RuntimeError("prelu: Type promoting not supported. Got {} and {}".format(*names))
    x = float_array(self)
    if weight.ndim > 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}"
        )
    ch = x.shape[1] if x.ndim >= 2 else 1
    if weight.numel() not in (1, ch):
        raise RuntimeError(
            f"Mismatch of parameter numbers and input channel size. Found parameter "
            f"numbers = {weight.numel()} and channel size = {ch}."
        )
    if x.ndim != 1:  # ATen views the weight to broadcast along dim 1 (ViewBackward0)
        shape = [1] * x.ndim
        if x.ndim >= 2:
            shape[1] = weight.numel()
        weight = weight.view(*shape)
    out = np.where(x > 0, x, weight._d * x).astype(x.dtype)
    return record(PreluKernelBackward0, out, (self, weight), {"self": self, "weight": weight})


class PreluKernelBackward0(OpNode):
    __slots__ = ()
    _name = "PreluKernelBackward0"

    def apply(self, grads: Grads) -> Grads:
        # written with engine ops so that create_graph=True gives second derivatives
        g = grads[0]
        assert g is not None
        xt, wt = self.saved("self"), self.saved("weight")
        pos = const((xt._d > 0).astype(xt._d.dtype))
        neg = const((xt._d <= 0).astype(xt._d.dtype))
        gx = g * (pos + neg * wt) if self.needs(0) else None
        gw = unbroadcast(g * xt * neg, tuple(wt.shape)) if self.needs(1) else None
        return [gx, gw]
