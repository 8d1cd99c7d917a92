"""`torch.linalg`: the vector norm and products this engine supports.

>>> engine.linalg.vector_norm(engine.tensor([3.0, 4.0]))
tensor(5.)
"""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.ops.linalg import vdot
from engine.ops.linalg_more import linalg_cross as cross
from engine.ops.linalg_more import multi_dot
from engine.ops.linalg_solve import LinAlgError, det, inv, matrix_power, solve
from engine.ops.matmul import matmul
from engine.ops.reduce_stats import vector_norm


def norm(
    A: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
) -> Tensor:
    """`torch.linalg.norm` for vectors and the Frobenius norm (other matrix norms unsupported)."""
    if ord is None or ord == "fro":
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    if isinstance(ord, str) or (A._d.ndim != 1 and (dim is None or not isinstance(dim, int))):
        raise NotImplementedError(f"linalg.norm with ord={ord!r} on a matrix is not supported")
    return vector_norm(A, ord, dim, keepdim, dtype=dtype)


def matrix_norm(
    A: Tensor,
    ord: Any = "fro",
    dim: Any = (-2, -1),
    keepdim: bool = False,
    *,
    dtype: Any = None,
) -> Tensor:
    """The Frobenius norm over two dims (other matrix norms are not supported)."""
    if ord != "fro":
        raise NotImplementedError(f"linalg.matrix_norm with ord={ord!r} is not supported")
    nd = A._d.ndim
    if nd < 2:
        raise RuntimeError(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
        )
    dims = tuple(d % nd for d in dim)
    return vector_norm(A, 2, dims, keepdim, dtype=dtype)


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """Dot products along `dim` (a broadcast multiply, then a sum, as PyTorch records it)."""
    from engine.ops.reduce import sum as _sum

    return _sum(x * y, dim)  # type: ignore[operator]


__all__ = [
    "LinAlgError",
    "cross",
    "det",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "multi_dot",
    "norm",
    "solve",
    "vdot",
    "vecdot",
    "vector_norm",
]
