"""ATen's Scalar overloads as PyTorch's C++ code calls them (clamp_min, mul/div/add.Scalar):
nodes Python code never records (`x * 2` is MulBackward0, a wrapped number)."""

from __future__ import annotations

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record


def clamp_min(self: Tensor, min: float) -> Tensor:
    """max(self, min) with a scalar bound, as F.normalize calls it (ClampMinBackward0)."""
    out = np.maximum(self._d, min).astype(self._d.dtype)
    return record(ClampMinBackward0, out, (self,), {"self": self, "min": min})


class ClampMinBackward0(OpNode):
    __slots__ = ()
    _name = "ClampMinBackward0"
    _listed = False  # op_nodes() lists torch.clamp_min's (engine/ops/pointwise_binary.py)

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")
        # the gradient passes where self >= min (at the bound too), as PyTorch
        mask = make((x._d >= self.saved("min")).astype(g._d.dtype), False, None, 0)
        return [g * mask]


# -- tensor-by-scalar ops as PyTorch's C++ losses call them (mul.Scalar / div.Scalar) --------
def mul_scalar(self: Tensor, other: float) -> Tensor:
    """self * other recorded as MulBackward1 (a C++ scalar multiply)."""
    out = (self._d * other).astype(self._d.dtype)
    return record(MulScalarBackward, out, (self,), {"other": other})


class MulScalarBackward(OpNode):
    __slots__ = ()
    _name = "MulBackward1"
    _listed = False  # Python's `x * 2` records MulBackward0 (a wrapped number)
    _scalars = frozenset(("other",))

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * self.saved("other")]


def div_scalar(self: Tensor, other: float) -> Tensor:
    """self / other recorded as DivBackward1 (a C++ scalar divide)."""
    out = (self._d / other).astype(self._d.dtype)
    return record(DivScalarBackward, out, (self,), {"other": other})


class DivScalarBackward(OpNode):
    __slots__ = ()
    _name = "DivBackward1"
    _listed = False
    _scalars = frozenset(("other",))

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] / self.saved("other")]


def add_scalar(self: Tensor, other: float) -> Tensor:
    """self + other recorded as AddBackward1 (a C++ scalar add: it saves nothing)."""
    out = np.asarray(self._d + other).astype(self._d.dtype)
    return record(AddScalarBackward, out, (self,))


class AddScalarBackward(OpNode):
    __slots__ = ()
    _name = "AddBackward1"
    _listed = False

    def apply(self, grads: Grads) -> Grads:
        return [grads[0]]


def sub_scalar(self: Tensor, other: float) -> Tensor:
    """self - other recorded as SubBackward1 (a C++ scalar sub: it saves nothing)."""
    out = np.asarray(self._d - other).astype(self._d.dtype)
    return record(SubScalarBackward, out, (self,))


class SubScalarBackward(OpNode):
    __slots__ = ()
    _name = "SubBackward1"
    _listed = False

    def apply(self, grads: Grads) -> Grads:
        return [grads[0]]
