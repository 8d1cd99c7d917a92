"""Pointwise activations recorded as their own nodes: sigmoid and relu (relu'(0) = 0)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.pointwise.elementary import _exp, _unary
from engine.ops.table import Op


def _sigmoid(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    # split by sign so exp never overflows
    if a.dtype == np.float32:
        # PyTorch's float32 kernel: 1 / (1 + exp(-x)) in float32, with an accurate exp
        e32 = np.exp(-a.astype(np.float64)).astype(np.float32)
        return np.float32(1) / (np.float32(1) + e32)  # type: ignore[no-any-return]
    if _dtype.kind(a.dtype) == "c":
        return 1 / (1 + _exp(-a))  # type: ignore[no-any-return]
    out = np.empty_like(a)
    pos = a >= 0
    out[pos] = 1 / (1 + np.exp(-a[pos]))
    e = np.exp(a[~pos])
    out[~pos] = e / (1 + e)
    return out


def sigmoid(self: Tensor) -> Tensor:
    return _unary(SigmoidBackward0, _sigmoid, self, False, True)


class SigmoidBackward0(OpNode):
    __slots__ = ()
    _name = "SigmoidBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.act_backward import sigmoid_backward

        return [sigmoid_backward(grads[0], self.saved("result"))]  # type: ignore[arg-type]


def relu(self: Tensor) -> Tensor:
    if self._d.dtype == np.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    return record(ReluBackward0, np.maximum(self._d, 0), (self,), None, "result")


class ReluBackward0(OpNode):
    __slots__ = ()
    _name = "ReluBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.act_backward import threshold_backward

        # PyTorch uses result > 0, so relu'(0) = 0
        return [threshold_backward(grads[0], self.saved("result"), 0)]  # type: ignore[arg-type]


OPS = [
    Op("sigmoid", sigmoid, inplace=True, inplace_function=True, out=True),
    Op("relu", relu, inplace=True, inplace_function=True),
]
