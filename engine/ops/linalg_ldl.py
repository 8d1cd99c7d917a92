"""`torch.linalg.ldl_factor(_ex)` and `ldl_solve`: LAPACK's Bunch-Kaufman factorization
(sytrf) and its solve (sytrs), in LAPACK's compact form: L below the diagonal, D's 1x1 and 2x2
blocks on it, pivots 1-based and negative for a 2x2 block. PyTorch defines no derivative for
either (its NotImplemented node).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import return_types as rt
from engine._layout import lapack
from engine._tensor import Tensor, make
from engine.ops.linalg_solve import _square
from engine.ops.remainder import not_implemented_node


def _lapack(name: str, a: Any) -> Any:
    import scipy.linalg.lapack  # type: ignore[import-untyped]  # on first use

    return scipy.linalg.lapack.get_lapack_funcs(name, (a,))


def ldl_factor_ex(
    A: Tensor, *, hermitian: bool = False, check_errors: bool = False
) -> Any:  # fmt: skip
    """`torch.linalg.ldl_factor_ex`: (LD, pivots, info), info > 0 naming a zero block of D."""
    a = A._d
    _square("torch.linalg.ldl_factor_ex", a)
    sytrf = _lapack("sytrf", a)
    flat = a.reshape(-1, *a.shape[-2:])
    lds, pivs, infos = [], [], []
    for m in flat:
        ld, piv, info = sytrf(m, lower=1)
        lds.append(np.tril(ld))
        pivs.append(piv)
        infos.append(info)
    batch = a.shape[:-2]
    ld = lapack(np.asarray(lds, a.dtype).reshape(a.shape))
    pivots = np.asarray(pivs, np.int32).reshape(*batch, a.shape[-1])
    info = np.asarray(infos, np.int32).reshape(batch)
    if check_errors and info.any():
        _raise("linalg.ldl_factor_ex", int(info.flat[np.flatnonzero(info)[0]]))
    LD = not_implemented_node(ld, (A,), "linalg_ldl_factor_ex")
    return rt.linalg_ldl_factor_ex((LD, make(pivots, False, None, 0), make(info, False, None, 0)))


def _raise(fn: str, code: int) -> None:
    # PyTorch 2.13 reports sytrf's singular D this way
    raise RuntimeError(
        'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
        'BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
        f"torch.{fn}: Unknown error code: {code}."
    )


def ldl_factor(A: Tensor, *, hermitian: bool = False) -> Any:
    """`torch.linalg.ldl_factor`: (LD, pivots), raising where D is singular."""
    LD, pivots, info = ldl_factor_ex(A, hermitian=hermitian)
    if info._d.any():
        _raise("linalg.ldl_factor", int(info._d.flat[np.flatnonzero(info._d)[0]]))
    return rt.linalg_ldl_factor((LD, pivots))


def ldl_solve(
    LD: Tensor, pivots: Tensor, B: Tensor, *, hermitian: bool = False
) -> Tensor:  # fmt: skip
    """`torch.linalg.ldl_solve`: X with A X = B, A given by `ldl_factor`'s result."""
    ld, piv, b = LD._d, pivots._d, B._d
    _square("torch.linalg.ldl_solve", ld)
    if b.ndim < 2:
        raise RuntimeError(
            "torch.linalg.ldl_solve: The input tensor B must have at least 2 dimensions."
        )
    if b.shape[-2] != ld.shape[-1]:
        raise RuntimeError(
            f"torch.linalg.ldl_solve: Incompatible shapes of A and B for the equation AX = B "
            f"({ld.shape[-2]}x{ld.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})"
        )
    dtype = np.result_type(ld, b)
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    lds = np.broadcast_to(ld, batch + ld.shape[-2:]).reshape(-1, *ld.shape[-2:])
    pivs = np.broadcast_to(piv, batch + piv.shape[-1:]).reshape(-1, piv.shape[-1])
    bs = np.broadcast_to(b, batch + b.shape[-2:]).reshape(-1, *b.shape[-2:])
    sytrs = _lapack("sytrs", lds.astype(dtype))
    xs = [sytrs(m.astype(dtype), p, rhs.astype(dtype), lower=1)[0] for m, p, rhs in
          zip(lds, pivs, bs, strict=True)]  # fmt: skip
    out = lapack(np.asarray(xs, dtype).reshape(batch + b.shape[-2:]))
    return not_implemented_node(out, (LD, B), "linalg_ldl_solve")
