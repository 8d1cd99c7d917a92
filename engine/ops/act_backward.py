"""The derivative ops of tanh, sigmoid and relu, as PyTorch records them under create_graph.

PyTorch computes these derivatives with dedicated kernels (`tanh_backward`, ...), so a
`create_graph=True` gradient shows `TanhBackwardBackward0` over (grad_output, output) rather
than a chain of multiplications; outside create_graph they cost one NumPy expression.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, acc_dtype, record


def _opmath(grad: Tensor, output: Tensor) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The arrays a backward kernel computes on: float32 for bfloat16 (rounded once by _data)."""
    g, y = grad._d, output._d
    if acc_dtype(g.dtype) is not None:
        return g.astype(np.float32), y.astype(np.float32)
    return g, y


def _data(grad: Tensor, out: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return out.astype(grad._d.dtype, copy=False) if out.dtype != grad._d.dtype else out


def tanh_backward(grad: Tensor, output: Tensor) -> Tensor:
    """grad * (1 - y)(1 + y): the product form rounds as PyTorch's float32 kernel near |y| = 1."""
    g, y = _opmath(grad, output)
    out = _data(grad, g * ((1 - y) * (1 + y)))
    saved = {"grad_output": grad, "output": output}
    return record(TanhBackwardBackward0, out, (grad, output), saved)


class TanhBackwardBackward0(OpNode):
    __slots__ = ()
    _name = "TanhBackwardBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        go, y = self.saved("grad_output"), self.saved("output")
        ga = tanh_backward(g, y) if self.needs(0) else None
        gb = g * (-2 * y * go) if self.needs(1) else None
        return [ga, gb]


def sigmoid_backward(grad: Tensor, output: Tensor) -> Tensor:
    g, y = _opmath(grad, output)
    out = _data(grad, g * y * (1 - y))
    saved = {"grad_output": grad, "output": output}
    return record(SigmoidBackwardBackward0, out, (grad, output), saved)


class SigmoidBackwardBackward0(OpNode):
    __slots__ = ()
    _name = "SigmoidBackwardBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        go, y = self.saved("grad_output"), self.saved("output")
        ga = sigmoid_backward(g, y) if self.needs(0) else None
        gb = g * go * (1 - 2 * y) if self.needs(1) else None
        return [ga, gb]


def threshold_backward(grad: Tensor, self: Tensor, threshold: float) -> Tensor:
    """grad where self > threshold, else 0 (relu's derivative, with self = relu's result)."""
    out = _data(grad, np.where(self._d > threshold, grad._d, 0))
    saved = {"self": self, "threshold": threshold}
    return record(ThresholdBackwardBackward0, out, (grad, self), saved)


class ThresholdBackwardBackward0(OpNode):
    __slots__ = ()
    _name = "ThresholdBackwardBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        s = self.saved("self")
        ga = threshold_backward(g, s, self.saved("threshold")) if self.needs(0) else None
        gb = make(np.zeros_like(g._d), False, None, 0) if self.needs(1) else None
        return [ga, gb]
