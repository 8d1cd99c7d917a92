"""The matrix exponential (`torch.linalg.matrix_exp`), differentiated as PyTorch does: the
gradient is the upper-right block of the exponential of a block matrix
[[A^H, G], [0, A^H]], so `create_graph=True` records matrix_exp again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.inplace import type_name
from engine.ops.table import Op


def linalg_matrix_exp(A: Tensor) -> Tensor:
    """`torch.linalg.matrix_exp`: exp of each square matrix in the last two dims.

    >>> torch.linalg.matrix_exp(torch.zeros(2, 2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    a = A._d
    if a.ndim < 2:
        raise RuntimeError("linalg.matrix_exp: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(
            "linalg.matrix_exp: A must be batches of square matrices, but they are "
            f"{a.shape[-2]} by {a.shape[-1]} matrices"
        )
    if _dtype.kind(a.dtype) not in "fc":
        raise RuntimeError(
            "linalg.matrix_exp: Expected a floating point or complex tensor as input. Got "
            f"{type_name(A.dtype)}"
        )
    out = _expm(a)
    return record(LinalgMatrixExpBackward0, out, (A,), {"self": A})


def _expm(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    if a.size == 0:
        return a.copy()
    import scipy.linalg  # type: ignore[import-untyped]  # on first use: most runs never need it

    return np.asarray(scipy.linalg.expm(a), dtype=a.dtype)


def _block_grad(A: Tensor, g: Tensor) -> Tensor:
    """d exp(A) backward: exp([[A^H, G], [0, A^H]]) narrowed to its upper-right block."""
    from engine.ops.index import narrow
    from engine.ops.tensor_shape import cat

    n = A._d.shape[-1]
    a_: Any = A  # the Tensor surface bound at import (mH)
    ah = a_.mH
    zero = make(np.zeros(A._d.shape, g._d.dtype), False, None, 0)
    top = cat([ah, g], -1)
    bottom = cat([zero, ah], -1)
    big = linalg_matrix_exp(cat([top, bottom], -2))
    return narrow(narrow(big, -2, 0, n), -1, n, n)


class LinalgMatrixExpBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgMatrixExpBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [_block_grad(self.saved("self"), g)]


def matrix_exp(self: Tensor) -> Tensor:
    """`torch.matrix_exp` / `Tensor.matrix_exp`: the same op as `torch.linalg.matrix_exp`."""
    return linalg_matrix_exp(self)


OPS = [
    Op("matrix_exp", matrix_exp),
]
