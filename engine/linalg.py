"""`torch.linalg`: the vector norm and products this engine supports.

>>> engine.linalg.vector_norm(engine.tensor([3.0, 4.0]))
tensor(5.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.ops.linalg import vdot
from engine.ops.linalg_decomp import cholesky, eigh, eigvalsh, svdvals
from engine.ops.linalg_decomp import linalg_qr as qr
from engine.ops.linalg_decomp import linalg_slogdet as slogdet
from engine.ops.linalg_decomp import linalg_svd as svd
from engine.ops.linalg_eig import eig, eigvals
from engine.ops.linalg_householder import householder_product
from engine.ops.linalg_ldl import ldl_factor, ldl_factor_ex, ldl_solve
from engine.ops.linalg_lu import linalg_lu as lu
from engine.ops.linalg_lu import linalg_lu_solve as lu_solve
from engine.ops.linalg_lu import lu_factor, lu_factor_ex
from engine.ops.linalg_norms import cond, matrix_norm, matrix_rank, norm
from engine.ops.linalg_pinv import lstsq, pinv
from engine.ops.linalg_products import linalg_cross as cross
from engine.ops.linalg_products import multi_dot
from engine.ops.linalg_solve import LinAlgError, det, inv, matrix_power, solve
from engine.ops.linalg_triangular import solve_triangular
from engine.ops.matmul import matmul
from engine.ops.matrix_exp import linalg_matrix_exp as matrix_exp
from engine.ops.reduce_stats import vector_norm
from engine.ops.vander import linalg_vander as vander


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """Dot products along `dim` (a broadcast multiply, then a sum, as PyTorch records it)."""
    from engine.ops.reduce import sum as _sum

    return _sum(x * y, dim)


__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "householder_product",
    "inv",
    "inv_ex",
    "ldl_factor",
    "ldl_factor_ex",
    "ldl_solve",
    "lstsq",
    "lu",
    "lu_factor",
    "lu_factor_ex",
    "lu_solve",
    "matmul",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "solve_triangular",
    "svd",
    "svdvals",
    "tensorinv",
    "tensorsolve",
    "vander",
    "vdot",
    "vecdot",
    "vector_norm",
]


def _info(A: Tensor, code: Any = 0) -> Tensor:
    return make(np.full(A._d.shape[:-2], code, np.int32), False, None, 0)


def inv_ex(A: Tensor, *, check_errors: bool = False) -> Any:
    """`torch.linalg.inv_ex`: (inverse, info). A singular matrix's inverse is what getrs
    gives (infinities and NaNs) and info its first zero pivot, unless `check_errors`."""
    from engine import return_types as rt

    try:
        return rt.linalg_inv_ex((inv(A), _info(A)))
    except LinAlgError as e:
        if check_errors:
            raise LinAlgError(str(e).replace("linalg.inv:", "linalg.inv_ex:", 1)) from None
    from engine._layout import lapack
    from engine.ops._core import record
    from engine.ops.linalg_lu import _factor, solve_factored
    from engine.ops.linalg_solve import LinalgInvExBackward0

    a = A._d
    lu, pivots, info = _factor(a)
    eye = np.eye(a.shape[-1], dtype=a.dtype)
    data = lapack(solve_factored(lu, pivots, eye).astype(a.dtype, copy=False))
    inverse = record(LinalgInvExBackward0, data, (A,), None, "inverse")
    return rt.linalg_inv_ex((inverse, make(info, False, None, 0)))


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False) -> Any:
    """`torch.linalg.cholesky_ex`: (L, info), info the order of the first non-positive minor."""
    from engine import return_types as rt
    from engine.ops.linalg_decomp import _not_pd_order

    try:
        return rt.linalg_cholesky_ex((cholesky(A, upper=upper), _info(A)))
    except LinAlgError as e:
        if check_errors:
            raise LinAlgError(str(e).replace("linalg.cholesky:", "linalg.cholesky_ex:")) from None
        return rt.linalg_cholesky_ex((_partial_cholesky(A, upper), _info(A, _not_pd_order(A._d))))


def _partial_cholesky(A: Tensor, upper: bool) -> Tensor:
    """LAPACK potrf's output when it stops early: the factor so far, the rest of A's triangle."""
    m = np.tril(np.array(A._d, np.float64))
    n = m.shape[-1]
    for k in range(n):
        d = m[..., k, k] - np.sum(m[..., k, :k] ** 2, axis=-1)
        if np.any(d <= 0):
            m[..., k, k] = d
            break
        m[..., k, k] = np.sqrt(d)
        for i in range(k + 1, n):
            m[..., i, k] = (m[..., i, k] - np.sum(m[..., i, :k] * m[..., k, :k], -1)) / m[..., k, k]
    out = np.swapaxes(m, -1, -2) if upper else m
    return make(np.ascontiguousarray(out.astype(A._d.dtype)), False, None, 0)


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False) -> Any:
    """`torch.linalg.solve_ex`: (result, info); for a singular A the infinities and NaNs of
    LU substitution and info its first zero pivot, unless `check_errors`."""
    from engine import return_types as rt
    from engine.ops.linalg_solve import solve_singular

    try:
        return rt.linalg_solve_ex((solve(A, B, left=left), _info(A)))
    except LinAlgError as e:
        if check_errors:
            raise LinAlgError(str(e).replace("linalg.solve:", "linalg.solve_ex:", 1)) from None
    result, info = solve_singular(A, B, left)
    return rt.linalg_solve_ex((result, make(info, False, None, 0)))


def tensorinv(A: Tensor, ind: int = 2) -> Tensor:
    """`torch.linalg.tensorinv`: the inverse of A read as a square matrix (the first `ind`
    dimensions its rows), reshaped to A.shape[ind:] + A.shape[:ind] (ATen's reshape, inv_ex,
    reshape)."""
    import math

    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, cols = A.shape[:ind], A.shape[ind:]
    if math.prod(rows) != math.prod(cols):
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
            f"prod(self.shape[:ind]), but got {math.prod(cols)} != {math.prod(rows)}"
        )
    return inv(A.reshape(math.prod(rows), math.prod(cols))).reshape(*cols, *rows)


def tensorsolve(A: Tensor, B: Tensor, dims: Any = None) -> Tensor:
    """`torch.linalg.tensorsolve`: X with tensordot(A, X, X.ndim) = B (A's `dims` moved last
    first), as ATen computes it: A reshaped square, B flattened, solve, reshape."""
    import math

    if dims is not None:
        dims = list(dims)
        A = A.movedim(dims, list(range(A.ndim - len(dims), A.ndim)))
    shape = A.shape[B.ndim :]
    if math.prod(shape) != B.numel():
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
            f"prod(self.shape[:other.ndim]), but got {math.prod(shape)} != {B.numel()}"
        )
    n = math.prod(shape)
    return solve(A.reshape(n, n), B.flatten()).reshape(*shape)


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """`torch.linalg.diagonal`: `torch.diagonal` with matrix-last defaults."""
    return A.diagonal(offset, dim1, dim2)


def _take_out() -> None:
    """PyTorch's `out=` on each `torch.linalg` function that has it (engine/ops/out_params.py):
    all but these."""
    from engine.ops.out_params import with_out

    for name in sorted(
        set(__all__) - {"LinAlgError", "diagonal", "lstsq", "matrix_exp", "vander", "vdot"}
    ):
        globals()[name] = with_out(globals()[name], "linalg_" + name)


_take_out()
