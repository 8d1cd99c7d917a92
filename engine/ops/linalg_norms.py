"""Matrix norms of every order, `linalg.norm`'s dispatch, `matrix_rank` and `cond`, composed
as ATen composes them (2-norms through svdvals of a permuted input, 1/inf-norms as an
amax/amin of column or row sums).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.ops.linalg_decomp import svdvals
from engine.ops.reduce_stats import vector_norm


def _dims(A: Tensor, dim: Any) -> tuple[int, int]:
    nd = A._d.ndim
    if nd < 2:
        raise RuntimeError(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
        )
    d0, d1 = (int(d) % nd for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    return d0, d1


def matrix_norm(
    A: Tensor, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False, *, dtype: Any = None
) -> Tensor:
    """`torch.linalg.matrix_norm`: 'fro', 'nuc', 2, -2, 1, -1, inf or -inf."""
    x = A
    d0, d1 = _dims(A, dim)
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if ord == "nuc" or ord in (2, -2):
        nd = A._d.ndim
        perm = [i for i in range(nd) if i not in (d0, d1)] + [d0, d1]
        s = svdvals(x.permute(*perm))
        red = s.sum if ord == "nuc" else s.amax if ord == 2 else s.amin
        if not keepdim:
            return red(-1)
        # keepdim: reduce keeping the last dim, unsqueeze, then undo the permutation
        back = [perm.index(i) for i in range(nd)]
        return red(-1, True).unsqueeze(-1).permute(*back)
    if isinstance(ord, str) or abs(ord) not in (1, math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if abs(ord) == math.inf:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    sums = vector_norm(A, 1, (d0,), keepdim, dtype=dtype)
    return sums.amax(d1, keepdim) if ord > 0 else sums.amin(d1, keepdim)


def norm(
    A: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
) -> Tensor:
    """`torch.linalg.norm`: a vector norm, or a matrix norm for 2 dims (or a matrix and `ord`)."""
    if dim is not None and not isinstance(dim, int) and len(dim) == 2:
        return matrix_norm(A, "fro" if ord is None else ord, dim, keepdim, dtype=dtype)
    if ord is not None and dim is None and A._d.ndim == 2:
        return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.vector_norm: Order {ord} not supported.")
    if dim is None and ord is not None and A._d.ndim != 1:
        raise RuntimeError(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
            f"{A._d.ndim}D."
        )
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def matrix_rank(
    A: Tensor, *, atol: Any = None, rtol: Any = None, hermitian: bool = False, tol: Any = None
) -> Tensor:
    """`torch.linalg.matrix_rank`: singular values above the tolerance."""
    a = A._d
    s = np.linalg.svd(a, compute_uv=False)
    if tol is not None:
        atol, rtol = tol, 0.0
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else max(a.shape[-2:]) * np.finfo(a.dtype).eps
    smax = s.max(axis=-1, keepdims=True) if s.size else s
    cut = np.maximum(0.0 if atol is None else atol, rtol * smax)
    return make(np.asarray((s > cut).sum(-1), np.int64), False, None, 0)


def cond(A: Tensor, p: Any = None) -> Tensor:
    """`torch.linalg.cond`: sigma_max / sigma_min (p None or 2), else norm(A) * norm(inv(A))."""
    from engine.ops.linalg_solve import inv

    if p is None or p in (2, -2):
        s = svdvals(A)
        big, small = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        r = big / small if p != -2 else small / big
        return r.squeeze(-1)
    # ATen inverts with inv_ex and fills singular batches with inf (a MaskedFillBackward0)
    a_inv = inv(A)
    singular = make(np.zeros((*A._d.shape[:-2], 1, 1), np.bool_), False, None, 0)
    # in place, as ATen does (so backward through it fails as in PyTorch: inv saved its result)
    prod = matrix_norm(A, p) * matrix_norm(a_inv.masked_fill_(singular, math.inf), p)
    return prod.nan_to_num_(math.inf, math.inf, -math.inf)
