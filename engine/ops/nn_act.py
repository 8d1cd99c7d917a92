"""More activations PyTorch records as one node: mish, hardswish, hardsigmoid, logsigmoid,
threshold (same machinery as engine/ops/nn_ops.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.ops._core import float_array, record
from engine.ops.nn_ops import Array, _Act, _sig


def _act(node: type[_Act], fn: Any, self: Tensor, **params: Any) -> Tensor:
    x = float_array(self)
    return record(
        node, np.asarray(fn(x, **params)).astype(x.dtype), (self,), {"self": self, **params}
    )


def mish(self: Tensor) -> Tensor:
    """x * tanh(softplus(x))."""
    return _act(MishBackward0, lambda x: x * np.tanh(np.logaddexp(0, x)), self)


class MishBackward0(_Act):
    __slots__ = ()
    _name = "MishBackward0"

    def deriv(self, x: Array) -> Array:
        t, s = np.tanh(np.logaddexp(0, x)), _sig(x)
        return np.asarray(t + x * (1 - t * t) * s)

    def deriv2(self, x: Array) -> Array:
        t, s = np.tanh(np.logaddexp(0, x)), _sig(x)
        return np.asarray(2 * (1 - t * t) * s + x * (1 - t * t) * s * (1 - s - 2 * t * s))


def hardswish(self: Tensor) -> Tensor:
    """x * relu6(x + 3) / 6."""
    return _act(HardswishBackward0, lambda x: x * np.clip(x + 3, 0, 6) / 6, self)


class HardswishBackward0(_Act):
    __slots__ = ()
    _name = "HardswishBackward0"

    def deriv(self, x: Array) -> Array:
        return np.where(x < -3, 0.0, np.where(x <= 3, x / 3 + 0.5, 1.0))

    def deriv2(self, x: Array) -> Array:
        return np.where((x > -3) & (x < 3), 1 / 3, 0.0)


def hardsigmoid(self: Tensor) -> Tensor:
    """relu6(x + 3) / 6."""
    return _act(HardsigmoidBackward0, lambda x: np.clip(x + 3, 0, 6) / 6, self)


class HardsigmoidBackward0(_Act):
    __slots__ = ()
    _name = "HardsigmoidBackward0"
    _no_double = "hardsigmoid_backward"

    def deriv(self, x: Array) -> Array:
        return np.where((x > -3) & (x < 3), 1 / 6, 0.0)


def log_sigmoid(self: Tensor) -> Tensor:
    """log(sigmoid(x)), computed stably."""
    return _act(LogSigmoidBackward0, lambda x: -np.logaddexp(0, -x), self)


class LogSigmoidBackward0(_Act):
    __slots__ = ()
    _name = "LogSigmoidBackward0"

    def deriv(self, x: Array) -> Array:
        return _sig(-x)

    def deriv2(self, x: Array) -> Array:
        s = _sig(x)
        return np.asarray(-s * (1 - s))


def threshold(self: Tensor, threshold: float, value: float) -> Tensor:
    """x where x > threshold, else value."""
    return _act(
        ThresholdBackward0,
        lambda x, threshold: np.where(x > threshold, x, value),
        self,
        threshold=threshold,
    )


class ThresholdBackward0(_Act):
    __slots__ = ()
    _name = "ThresholdBackward0"

    def deriv(self, x: Array) -> Array:
        return np.asarray(x > self.saved("threshold"), dtype=x.dtype)
