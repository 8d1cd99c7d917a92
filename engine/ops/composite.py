"""Nodes only ATen's C++ composites make: there a Python scalar is a C++ `Scalar`, so e.g.
`add_(eps)` inside `rms_norm` records AddBackward1 (Tensor-Scalar), while the same call from
Python wraps the scalar into a tensor and records AddBackward0."""

from __future__ import annotations

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record


def add_scalar(self: Tensor, other: float) -> Tensor:
    """self + other for a C++-side scalar (AddBackward1)."""
    out = np.add(self._d, self._d.dtype.type(other))
    return record(AddBackward1, out, (self,), None)


class AddBackward1(OpNode):
    __slots__ = ()
    _name = "AddBackward1"

    def apply(self, grads: Grads) -> Grads:
        return [grads[0]]
