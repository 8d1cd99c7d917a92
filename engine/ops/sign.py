"""Signs: `copysign` (|self| with the sign of `other`: CopysignBackward0 for a tensor sign,
CopysignBackward1 for a number), `signbit`, and `heaviside` (the step at 0, which PyTorch
does not differentiate)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, as_tensor, bshapes, in_shape, record, unbroadcast
from engine.ops.pointwise_binary import _floats
from engine.ops.table import Op


def copysign(self: Tensor, other: Any) -> Tensor:
    """|self| with the sign of `other` (a zero gradient flows to `other`)."""
    a, b, bt, rt = _floats(self, other)
    out = np.asarray(np.copysign(a, b)).astype(rt)
    if bt is None:
        return record(CopysignBackward1, out, (self,), {"self": self}, "result")
    shapes = bshapes(self, bt, out)
    return record(CopysignBackward0, out, (self, bt), {"self": self}, "result", shapes)


def _ratio_grad(node: OpNode, g: Tensor) -> Tensor:
    """g * result / self, 0 where self is 0 (PyTorch's copysign_tensor_self_backward)."""
    s: Any = node.saved("self")
    r: Any = node.saved("result")
    zero = make(np.asarray(s._d == 0), False, None, 0)
    return g * (r / s).masked_fill(zero, 0.0)  # type: ignore[no-any-return]


def _sign_grad(node: OpNode, g: Tensor) -> Tensor:
    """The scalar overload's gradient: g times a constant ratio (no second-order path)."""
    s, r = node.saved("self")._d, node.saved("result")._d
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(s == 0, 0, r / s).astype(r.dtype)
    return g * make(ratio, False, None, 0)


class CopysignBackward0(OpNode):
    __slots__ = ()
    _name = "CopysignBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        ga = unbroadcast(_ratio_grad(self, g), in_shape(self, 0, g)) if self.needs(0) else None
        gb = None
        if self.needs(1):
            shape = in_shape(self, 1, g)
            gb = make(np.zeros(shape, g._d.dtype), False, None, 0)
        return [ga, gb]


class CopysignBackward1(OpNode):
    __slots__ = ()
    _name = "CopysignBackward1"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [_sign_grad(self, g)]


def signbit(self: Tensor) -> Tensor:
    return make(np.signbit(self._d), False, None, 0)


def heaviside(self: Tensor, values: Any) -> Tensor:
    v = as_tensor(values)
    if v._d.dtype != self._d.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes")
    from engine.ops.remainder import not_implemented_node

    out = np.heaviside(self._d, v._d).astype(self._d.dtype)
    # PyTorch defines no derivative: a NotImplemented node
    return not_implemented_node(out, (self, v), "heaviside")


OPS = [
    Op("copysign", copysign, inplace=True, out=True),
    Op("signbit", signbit, out=True),
    Op("heaviside", heaviside, out=True, inplace=True),
]
