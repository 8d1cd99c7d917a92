"""Vandermonde matrices, composed from primitives exactly as ATen composes them so the drawn
graphs are PyTorch's: `torch.vander` fills an empty matrix (select/fill_, slice/copy_,
cumprod, flip), `torch.linalg.vander` concatenates ones to a cumprod of an expanded column.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.ops.inplace import type_name
from engine.ops.table import Op


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:
    """`torch.vander`: columns x**(N-1) ... x**0 (reversed when `increasing`).

    >>> torch.vander(torch.tensor([1, 2, 3]))
    tensor([[1, 1, 1],
            [4, 2, 1],
            [9, 3, 1]])
    """
    if x._d.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x._d.shape[0]
    if N is not None:
        n = int(N)
        if n < 0:
            raise RuntimeError("N must be non-negative.")
    # cumprod promotes integers to long: so does the result
    dt = _dtype.promote_types(x.dtype, _dtype.int64)
    x_: Any = x  # the Tensor surface bound at import (unsqueeze, cumprod, flip)
    result: Any = make(np.empty((x._d.shape[0], n), dt.np), False, None, 0)
    if n > 0:
        result.select(1, 0).fill_(1)
        if n > 1:
            result[:, 1:].copy_(x_.unsqueeze(1))
            result[:, 1:].copy_(result[:, 1:].cumprod(1))
    out: Tensor = result.flip(1) if not increasing else result
    return out


def linalg_vander(x: Tensor, *, N: int | None = None) -> Tensor:
    """`torch.linalg.vander`: powers x**0 ... x**(N-1) along a new last dim (batched)."""
    t = x.dtype
    if t.name not in _SUPPORTED:
        raise RuntimeError(
            "linalg.vander supports floating point, complex, and integer tensors, but got "
            f"{type_name(t)}"
        )
    xa: Any = x
    x_: Any = xa.unsqueeze(-1) if x._d.ndim == 0 else xa
    shape = list(x_._d.shape)
    n = shape[-1] if N is None else int(N)
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    shape.append(n - 1)
    result: Any = x_.unsqueeze(-1).expand(*shape).cumprod(-1)
    shape[-1] = 1
    ones = result.new_ones(shape)
    from engine.ops.tensor_shape import cat

    return cat([ones, result], -1)


_SUPPORTED = frozenset(
    ("float32", "float64", "complex64", "complex128", "uint8", "int8", "int16", "int32", "int64")
)

OPS = [
    Op("vander", vander, method=False),
]
