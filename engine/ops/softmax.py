"""Softmax family: softmax, log_softmax and logsumexp, all computed stably (the maximum is
subtracted first), and their backward primitives `_softmax_backward_data` /
`_log_softmax_backward_data`, which PyTorch records as nodes of their own under create_graph.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, float_array, opmath, record
from engine.ops.convert import _convert
from engine.ops.reduce import ALL, axes_of, dims_of, shown, shown_list, unsqueeze_to, wrap_dim
from engine.ops.reduce_stats import _type_name
from engine.ops.table import Op

_ADD: Any = np.add.reduce
_MAX: Any = np.maximum.reduce


# -- softmax family ----------------------------------------------------------------------
def need_dim(name: str, dim: Any) -> None:
    """PyTorch's argument-parser errors for a missing or None `dim`."""
    if dim is ALL:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if dim is None:
        raise TypeError(f"{name}(): argument 'dim' must be int, not NoneType")


def _softmax_arrays(
    self: Tensor, dim: Any, dtype: Any, name: str = "softmax"
) -> tuple[np.ndarray[Any, Any], int]:
    a = self._d
    d = wrap_dim(int(dim), a.ndim)
    if dtype is not None:
        a = a.astype(dtype.np, copy=False)
    elif _dtype.kind(a.dtype) != "f":
        kernel = "lastdim_kernel_impl" if d >= a.ndim - 1 else "kernel_impl"
        raise NotImplementedError(f"\"{name}_{kernel}\" not implemented for '{_type_name(a)}'")
    return a, d


def _softmax_np(a: np.ndarray[Any, Any], d: int) -> np.ndarray[Any, Any]:
    out: np.ndarray[Any, Any] = a - _MAX(a, axis=d, keepdims=True)
    np.exp(out, out=out)
    out /= _ADD(out, axis=d, keepdims=True)
    return out


def _log_softmax_np(a: np.ndarray[Any, Any], d: int) -> np.ndarray[Any, Any]:
    out: np.ndarray[Any, Any] = a - _MAX(a, axis=d, keepdims=True)
    out -= np.log(_ADD(np.exp(out), axis=d, keepdims=True))
    return out


def softmax(self: Tensor, dim: Any = ALL, dtype: Any = None) -> Tensor:
    """exp(x) / sum(exp(x)) along `dim`, computed stably."""
    need_dim("softmax", dim)
    if dtype is not None:  # PyTorch converts first: a ToCopyBackward0 when the dtype changes
        self, dtype = _convert(self, dtype, False), None
    a, d = _softmax_arrays(self, dim, dtype)
    if a.ndim == 0:
        out = np.ones((), a.dtype)
    else:
        out = opmath(lambda x: _softmax_np(x, d), a)
    return record(SoftmaxBackward0, out, (self,), {"dim": shown(int(dim))}, out_saved="result")


def log_softmax(self: Tensor, dim: Any = ALL, dtype: Any = None) -> Tensor:
    """x - logsumexp(x) along `dim`, computed stably."""
    need_dim("log_softmax", dim)
    if dtype is not None:  # PyTorch converts first: a ToCopyBackward0 when the dtype changes
        self, dtype = _convert(self, dtype, False), None
    a, d = _softmax_arrays(self, dim, dtype, "log_softmax")
    if a.ndim == 0:
        out = np.zeros((), a.dtype)
    else:
        out = opmath(lambda x: _log_softmax_np(x, d), a)
    return record(LogSoftmaxBackward0, out, (self,), {"dim": shown(int(dim))}, out_saved="result")


def _safe_softmax(self: Tensor, dim: int) -> Tensor:
    """`torch._safe_softmax`: softmax, but 0 (not nan) along a row that is all -inf, as
    attention's math path uses it for fully masked rows (SafeSoftmaxBackward0)."""
    a, d = _softmax_arrays(self, dim, None)
    out = opmath(lambda x: _softmax_np(x, d), a) if a.ndim else np.ones((), a.dtype)
    if a.ndim:
        out = np.where(np.all(a == -np.inf, axis=d, keepdims=True), 0.0, out).astype(a.dtype)
    return record(SafeSoftmaxBackward0, out, (self,), {"dim": shown(dim)}, out_saved="result")


class SafeSoftmaxBackward0(OpNode):
    __slots__ = ()
    _name = "SafeSoftmaxBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [softmax_backward_data(g, self.saved("result"), self.saved("dim"))]


class SoftmaxBackward0(OpNode):
    __slots__ = ()
    _name = "SoftmaxBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [softmax_backward_data(g, self.saved("result"), self.saved("dim"))]


class LogSoftmaxBackward0(OpNode):
    __slots__ = ()
    _name = "LogSoftmaxBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [log_softmax_backward_data(g, self.saved("result"), self.saved("dim"))]


# PyTorch's softmax gradients are primitives too (`_softmax_backward_data`), so a gradient
# taken with create_graph=True shows SoftmaxBackwardDataBackward0, as there.
def softmax_backward_data(grad_output: Tensor, output: Tensor, dim: Any) -> Tensor:
    """output * (grad_output - sum(grad_output * output, dim))."""
    go, o = grad_output._d, output._d
    gr = go * o
    if o.ndim:
        gr -= o * _ADD(gr, axis=axes_of(dim, o.ndim), keepdims=True)
    else:
        gr = gr * 0
    saved = {"dim": dim, "grad_output": grad_output, "output": output}
    return record(SoftmaxBackwardDataBackward0, gr, (grad_output, output), saved)


def log_softmax_backward_data(grad_output: Tensor, output: Tensor, dim: Any) -> Tensor:
    """grad_output - exp(output) * sum(grad_output, dim)."""
    go, o = grad_output._d, output._d
    gs = _ADD(go, axis=axes_of(dim, o.ndim), keepdims=True) if o.ndim else go
    saved = {"dim": dim, "grad_output": grad_output, "output": output}
    return record(
        LogSoftmaxBackwardDataBackward0, go - np.exp(o) * gs, (grad_output, output), saved
    )


class SoftmaxBackwardDataBackward0(OpNode):
    __slots__ = ()
    _name = "SoftmaxBackwardDataBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.reduce import sum as _sum

        gg: Any = grads[0]
        go: Any = self.saved("grad_output")
        o: Any = self.saved("output")
        dim = self.saved("dim")
        d = axes_of(dim, o._d.ndim)
        g_go = softmax_backward_data(gg, o, dim) if self.needs(0) else None
        g_o = None
        if self.needs(1):
            g_o = go * gg - _sum(o * go, d, True) * gg - go * _sum(o * gg, d, True)
        return [g_go, g_o]


class LogSoftmaxBackwardDataBackward0(OpNode):
    __slots__ = ()
    _name = "LogSoftmaxBackwardDataBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.reduce import sum as _sum

        gg: Any = grads[0]
        go: Any = self.saved("grad_output")
        o: Any = self.saved("output")
        d = axes_of(self.saved("dim"), o._d.ndim)
        g_go = gg - _sum(gg * o.exp(), d, True) if self.needs(0) else None
        g_o = -_sum(go, d, True) * o.exp() * gg if self.needs(1) else None
        return [g_go, g_o]


def logsumexp(self: Tensor, dim: Any = ALL, keepdim: bool = False) -> Tensor:
    """log(sum(exp(x))) over `dim`, computed stably."""
    need_dim("logsumexp", dim)
    a = float_array(self)
    axes = dims_of(dim, a.ndim)
    if a.ndim == 0:
        out = a.copy()
    else:
        m = a.max(axis=axes, keepdims=True)
        m[np.isinf(m)] = 0  # an all-inf slice must not become inf - inf
        s = np.log(np.exp(a - m).sum(axis=axes, keepdims=True)) + m
        out = s if keepdim else s.reshape([n for i, n in enumerate(a.shape) if i not in axes])
    saved = {"dim": shown_list(dim), "keepdim": keepdim, "self": self}
    return record(LogsumexpBackward0, out, (self,), saved, out_saved="result")


class LogsumexpBackward0(OpNode):
    __slots__ = ()
    _name = "LogsumexpBackward0"

    def apply(self, grads: Grads) -> Grads:
        g, x, r = grads[0], self.saved("self"), self.saved("result")
        assert g is not None
        shape = x._d.shape
        axes = axes_of(self.saved("dim"), len(shape))
        if not self.saved("keepdim"):
            g, r = unsqueeze_to(g, shape, axes), unsqueeze_to(r, shape, axes)
        return [g * (x - r).exp()]


OPS = [
    Op("softmax", softmax, out=True),
    Op("log_softmax", log_softmax, out=True),
    Op("_safe_softmax", _safe_softmax, method=False),
    Op("logsumexp", logsumexp, out=True),
]
