"""Elementary unary functions: neg, exp, log, sqrt, rsqrt, abs, sign, sin, cos, tanh, reciprocal.

Float32 transcendental results are rounded from float64, as PyTorch's kernels agree with the
correctly rounded value; sqrt'(0) = inf and abs'(0) = 0, as PyTorch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, float_array, opmath, record
from engine.ops.table import Op


def _rounded(fn: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]]) -> Any:
    """`fn` evaluated in float64 and rounded to float32 for float32 inputs.

    NumPy's float32 exp/tanh/sin differ from PyTorch's in the last bit for about a third of
    inputs, which shows in printed values; the correctly rounded result almost always agrees.
    """

    def run(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        if a.dtype == np.float32:
            return fn(a.astype(np.float64)).astype(np.float32)
        if a.dtype == np.complex64:
            return fn(a.astype(np.complex128)).astype(np.complex64)
        return fn(a)

    return run


_exp, _log, _sin, _cos, _tanh = map(_rounded, (np.exp, np.log, np.sin, np.cos, np.tanh))


def _unary(node: type[OpNode], fn: Any, self: Tensor, save_self: bool, save_result: bool) -> Tensor:
    out = opmath(fn, float_array(self))
    return record(
        node, out, (self,), {"self": self} if save_self else None, "result" if save_result else None
    )


def neg(self: Tensor) -> Tensor:
    _dtype.refuse_barely(self._d.dtype, "neg_cpu")
    if _dtype.kind(self._d.dtype) == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return record(NegBackward0, np.negative(self._d), (self,))


class NegBackward0(OpNode):
    __slots__ = ()
    _name = "NegBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [-grads[0]]  # type: ignore[operator]


def exp(self: Tensor) -> Tensor:
    return _unary(ExpBackward0, _exp, self, False, True)


class ExpBackward0(OpNode):
    __slots__ = ()
    _name = "ExpBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * self.saved("result")]


def log(self: Tensor) -> Tensor:
    return _unary(LogBackward0, _log, self, True, False)


class LogBackward0(OpNode):
    __slots__ = ()
    _name = "LogBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] / self.saved("self")]


def sqrt(self: Tensor) -> Tensor:
    return _unary(SqrtBackward0, np.sqrt, self, False, True)


class SqrtBackward0(OpNode):
    __slots__ = ()
    _name = "SqrtBackward0"

    def apply(self, grads: Grads) -> Grads:
        # sqrt'(0) = inf, as PyTorch: g / (2 * 0)
        return [grads[0] / (2 * self.saved("result"))]


def rsqrt(self: Tensor) -> Tensor:
    return _unary(RsqrtBackward0, lambda a: 1 / np.sqrt(a), self, False, True)


class RsqrtBackward0(OpNode):
    __slots__ = ()
    _name = "RsqrtBackward0"

    def apply(self, grads: Grads) -> Grads:
        r = self.saved("result")
        return [-0.5 * grads[0] * r * r * r]  # type: ignore[operator]


def abs(self: Tensor) -> Tensor:
    _dtype.refuse_barely(self._d.dtype, "abs_cpu")
    if _dtype.kind(self._d.dtype) == "c":  # a real result, with a non-holomorphic gradient
        from engine.ops.complex_polar import abs_complex

        return abs_complex(self)
    return record(AbsBackward0, np.abs(self._d), (self,), {"self": self})


class AbsBackward0(OpNode):
    __slots__ = ()
    _name = "AbsBackward0"

    def apply(self, grads: Grads) -> Grads:
        # PyTorch's formula is `grad * self.sgn()` (SgnBackward0 under create_graph)
        return [grads[0] * self.saved("self").sgn()]


def sign(self: Tensor) -> Tensor:
    if _dtype.kind(self._d.dtype) == "c":
        raise NotImplementedError(
            "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
            "torch.sgn instead."
        )
    return record(SignBackward0, np.sign(self._d), (self,))


class SignBackward0(OpNode):
    __slots__ = ()
    _name = "SignBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * 0]  # type: ignore[operator, list-item]


def sin(self: Tensor) -> Tensor:
    return _unary(SinBackward0, _sin, self, True, False)


class SinBackward0(OpNode):
    __slots__ = ()
    _name = "SinBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * cos(self.saved("self"))]


def cos(self: Tensor) -> Tensor:
    return _unary(CosBackward0, _cos, self, True, False)


class CosBackward0(OpNode):
    __slots__ = ()
    _name = "CosBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * -sin(self.saved("self"))]


def tanh(self: Tensor) -> Tensor:
    return _unary(TanhBackward0, _tanh, self, False, True)


class TanhBackward0(OpNode):
    __slots__ = ()
    _name = "TanhBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.act_backward import tanh_backward

        return [tanh_backward(grads[0], self.saved("result"))]  # type: ignore[arg-type]


def reciprocal(self: Tensor) -> Tensor:
    return _unary(ReciprocalBackward0, lambda a: 1 / a, self, False, True)


class ReciprocalBackward0(OpNode):
    __slots__ = ()
    _name = "ReciprocalBackward0"

    def apply(self, grads: Grads) -> Grads:
        r = self.saved("result")
        return [-grads[0] * r * r]  # type: ignore[operator]


OPS = [
    Op("neg", neg, inplace=True, inplace_function=True, out=True, operators=("__neg__",)),
    Op("exp", exp, inplace=True, inplace_function=True, out=True),
    Op("log", log, inplace=True, inplace_function=True, out=True),
    Op("sqrt", sqrt, inplace=True, inplace_function=True, out=True),
    Op("rsqrt", rsqrt, inplace=True, inplace_function=True, out=True),
    Op("abs", abs, inplace=True, inplace_function=True, out=True, operators=("__abs__",)),
    Op("sign", sign, inplace=True, out=True),
    Op("sin", sin, inplace=True, inplace_function=True, out=True),
    Op("cos", cos, inplace=True, inplace_function=True, out=True),
    Op("tanh", tanh, inplace=True, inplace_function=True, out=True),
    Op("reciprocal", reciprocal, inplace=True, inplace_function=True, out=True),
]
