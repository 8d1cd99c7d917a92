"""`torch.tril_indices` / `torch.triu_indices`: coordinates of a triangle, as a 2 x N long
tensor."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.ops.table import Op


def _t(a: Any) -> Tensor:
    return make(np.asarray(a), False, None, 0)


def _i64(a: Any) -> Tensor:
    return _t(np.asarray(a, np.int64))


def _tri_indices(row: int, col: int, offset: int, lower: bool) -> Tensor:
    r, c = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return _i64(np.stack([r, c]))


def tril_indices(
    row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None
) -> Tensor:
    return _tri_indices(row, col, offset, True)


def triu_indices(
    row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None
) -> Tensor:
    return _tri_indices(row, col, offset, False)


OPS = [
    Op("tril_indices", tril_indices, method=False),
    Op("triu_indices", triu_indices, method=False),
]
