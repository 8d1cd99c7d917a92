"""`torch.poisson`: counts drawn with the rates in `input` (PyTorch's stream, see
engine/_generator.py); the rates get a zero gradient (PoissonBackward0), as in PyTorch.

>>> torch.manual_seed(0); torch.poisson(torch.tensor([0.5, 3.0, 15.0]))
tensor([ 2.,  4., 16.])
"""

from __future__ import annotations

from typing import Any

from engine import _dtype, _generator
from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.table import Op

# the dtype names ATen's "not implemented" error uses
_ATEN_NAMES = {
    "uint8": "Byte",
    "int8": "Char",
    "int16": "Short",
    "int32": "Int",
    "int64": "Long",
    "bool": "Bool",
    "complex64": "ComplexFloat",
    "complex128": "ComplexDouble",
}


def poisson(input: Tensor, generator: Any = None) -> Tensor:
    """One Poisson count per rate, in `input`'s dtype."""
    d = input._d
    if _dtype.kind(d.dtype) != "f":
        name = _ATEN_NAMES.get(input.dtype.name, input.dtype.name)
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{name}'")
    drawn = _generator.pick(generator).poisson(d).astype(d.dtype)
    return record(PoissonBackward0, drawn, (input,))


class PoissonBackward0(OpNode):
    __slots__ = ()
    _name = "PoissonBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [g * 0]


OPS = [
    Op("poisson", poisson, method=False),
]
