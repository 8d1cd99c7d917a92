"""LU factorization: `torch.linalg.lu`, `lu_factor`, `lu_factor_ex`, `lu_solve`, `torch.lu_unpack`
and the deprecated `torch.lu`.

Pivots are LAPACK's: int32 and 1-based, row i swapped with row pivots[i] in turn, so that
A = P L U. The factorizations record PyTorch's nodes (LinalgLuBackward0,
LinalgLuFactorExBackward0) with its gradient for square matrices; `lu_solve` records
LinalgLuSolveBackward0; `lu_unpack` is composed of tril/triu, whose nodes a trace shows instead
of PyTorch's single LuUnpackBackward0.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from engine import return_types as rt
from engine._layout import lapack
from engine._tensor import Tensor, make
from engine._warn import warn_once
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, record_multi, unbroadcast
from engine.ops.linalg_decomp import _float
from engine.ops.linalg_solve import _mt
from engine.ops.table import Op


def _const(a: np.ndarray[Any, Any]) -> Tensor:
    return make(a if a.flags.c_contiguous else a.copy(), False, None, 0)


def _factor(a: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], ...]:
    """LAPACK getrf over the batch: (LU, 1-based int32 pivots, info)."""
    import scipy.linalg  # type: ignore[import-untyped]  # on first use, as linalg_solve does

    m, n = a.shape[-2:]
    flat = a.reshape(-1, m, n)
    lus = np.empty_like(flat)
    pivots = np.empty((flat.shape[0], min(m, n)), np.int32)
    info = np.zeros(flat.shape[0], np.int32)
    for i, x in enumerate(flat):
        with warnings.catch_warnings():  # a singular matrix: info says so, as LAPACK's does
            warnings.simplefilter("ignore")
            lu, piv = scipy.linalg.lu_factor(x, check_finite=False)
        lus[i], pivots[i] = lu, piv + 1
        zero = np.flatnonzero(np.diagonal(lu) == 0)
        info[i] = zero[0] + 1 if zero.size else 0
    batch = a.shape[:-2]
    return lus.reshape(a.shape), pivots.reshape(*batch, -1), info.reshape(batch)


def solve_factored(lu: Any, pivots: Any, b: Any, trans: bool = False) -> Any:
    """A X = B (A^T X = B when `trans`) from getrf's factors, as getrs goes: the pivots' row
    swaps and two triangular substitutions (a zero pivot gives infinities and NaNs, not an
    error)."""
    from engine.ops.linalg_triangular import substitute

    n = lu.shape[-1]
    batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    x = np.array(np.broadcast_to(b, batch + b.shape[-2:]), np.result_type(lu, b))
    piv = np.broadcast_to(pivots, batch + pivots.shape[-1:])
    unit_lower = np.tril(lu, -1) + np.eye(n, dtype=lu.dtype)
    if trans:  # U^T, then L^T, then the swaps undone in reverse order
        x = substitute(
            np.swapaxes(unit_lower, -1, -2),
            substitute(np.swapaxes(np.triu(lu), -1, -2), x, False),
            True,
        )
    for idx in np.ndindex(batch):
        for i, p in reversed(list(enumerate(piv[idx]))) if trans else enumerate(piv[idx]):
            x[idx][[i, p - 1]] = x[idx][[p - 1, i]]
    if trans:
        return x
    return substitute(np.triu(lu), substitute(unit_lower, x, False), True)


def _permutation(pivots: np.ndarray[Any, Any], m: int, dtype: Any) -> np.ndarray[Any, Any]:
    """P with A = P L U, from LAPACK's row swaps."""
    flat = pivots.reshape(-1, pivots.shape[-1])
    out = np.zeros((flat.shape[0], m, m), dtype)
    for b, piv in enumerate(flat):
        perm = np.arange(m)
        for i, p in enumerate(piv):
            perm[[i, p - 1]] = perm[[p - 1, i]]
        out[b, perm, np.arange(m)] = 1
    return out.reshape(*pivots.shape[:-1], m, m)


def _unpack(lu: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    m, n = lu.shape[-2:]
    k = min(m, n)
    L = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    return L, np.triu(lu[..., :k, :])


def _lu_grad(P: Any, L: Any, U: Any, gL: Any, gU: Any) -> Tensor:
    """PyTorch's linalg_lu_backward for square A = P L U:
    gA = P L^-H [(L^H gL).tril(-1) + (gU U^H).triu()] U^-H."""
    from engine.ops.linalg_triangular import solve_triangular
    from engine.ops.matmul import matmul

    if L._d.shape[-1] != U._d.shape[-2] or L._d.shape[-2] != U._d.shape[-1]:
        raise NotImplementedError(
            "the engine differentiates the LU factorization of square matrices only"
        )
    phi: Any = None
    if gL is not None:
        phi = matmul(_mh(L), gL).tril(-1)
    if gU is not None:
        term = matmul(gU, _mh(U)).triu()
        phi = term if phi is None else phi + term
    x = solve_triangular(_mh(L), phi, upper=True, unitriangular=True)
    x = solve_triangular(_mh(U), x, upper=False, left=False)
    return matmul(P, x)


class LinalgLuBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # the formula takes conjugate transposes itself
    _name = "LinalgLuBackward0"

    def apply(self, grads: Grads) -> Grads:
        gL, gU = grads
        return [_lu_grad(self.saved("P"), self.saved("L"), self.saved("U"), gL, gU)]


class LinalgLuFactorExBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # the formula takes conjugate transposes itself
    _name = "LinalgLuFactorExBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        if g is None:
            return [None]
        # L and U taken from the saved LU by recorded ops: a double backward reaches it
        P, L, U = lu_unpack(self.saved("LU"), self.saved("pivots"))
        return [_lu_grad(P, L, U, g.tril(-1), g.triu())]


def linalg_lu(A: Tensor, *, pivot: bool = True) -> Any:
    """`torch.linalg.lu`: (P, L, U) with A = P L U."""
    _pivoting("linalg.lu", pivot)
    _float_or_complex("linalg.lu", A._d)
    lu, pivots, _ = _factor(A._d)
    L, U = _unpack(lu)
    P = _const(_permutation(pivots, A._d.shape[-2], A._d.dtype))
    # P is no output of the node (PyTorch numbers L and U 0 and 1): it is saved
    L_, U_ = record_multi(
        LinalgLuBackward0, [L, U], (A,), {"pivot": pivot, "P": P}, out_saved=("L", "U")
    )
    return rt.linalg_lu((P, L_, U_))


def lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False) -> Any:
    """`torch.linalg.lu_factor_ex`: (LU, pivots, info), info the first zero pivot (1-based)."""
    _pivoting("linalg.lu_factor_ex", pivot)
    _float_or_complex("linalg.lu_factor_ex", A._d)
    lu, pivots, info = _factor(A._d)
    if check_errors and info.any():
        from engine.ops.linalg_solve import LinAlgError

        raise LinAlgError(
            f"torch.linalg.lu_factor_ex: U[{int(info.flat[0])},{int(info.flat[0])}] is zero and "
            "using it on lu_solve would result in a division by zero. If you still want to "
            "perform the factorization, consider calling linalg.lu(A, pivot) or "
            "linalg.lu_factor_ex(A, pivot)"
        )
    saved = {"pivot": pivot, "pivots": _const(pivots)}
    [LU] = record_multi(LinalgLuFactorExBackward0, [lapack(lu)], (A,), saved, out_saved=("LU",))
    return rt.linalg_lu_factor_ex((LU, saved["pivots"], _const(info)))


def lu_factor(A: Tensor, *, pivot: bool = True) -> Any:
    """`torch.linalg.lu_factor`: (LU, pivots), raising on a singular matrix."""
    LU, pivots, info = lu_factor_ex(A, pivot=pivot)
    if info._d.any():  # (a RuntimeError here, not a LinAlgError)
        k = int(info._d.flat[np.flatnonzero(info._d)[0]])
        raise RuntimeError(
            f"torch.linalg.lu_factor: U[{k},{k}] is zero and using it on lu_solve would result "
            "in a division by zero. If you still want to perform the factorization, consider "
            "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"
        )
    return rt.linalg_lu_factor((LU, pivots))


def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,
              unpack_pivots: bool = True) -> Any:  # fmt: skip
    """`torch.lu_unpack`: (P, L, U) from `lu_factor`'s result (empty tensors for what is not
    unpacked)."""
    from engine.ops.tensor_shape import tril, triu

    m, n = LU_data._d.shape[-2:]
    k = min(m, n)
    empty = _const(np.empty(0, LU_data._d.dtype))
    P = _const(_permutation(LU_pivots._d, m, LU_data._d.dtype)) if unpack_pivots else empty
    if not unpack_data:
        return rt.lu_unpack((P, empty, empty))
    eye = _const(np.eye(m, k, dtype=LU_data._d.dtype))
    L = tril(LU_data[..., :, :k], -1) + eye
    return rt.lu_unpack((P, L, triu(LU_data[..., :k, :])))


def linalg_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True,
             adjoint: bool = False) -> Tensor:  # fmt: skip
    """`torch.linalg.lu_solve`: X with A X = B for A = P L U (A^H when `adjoint`, X A when
    not `left`), by getrs on the factors; one LinalgLuSolveBackward0, as PyTorch records."""
    lu, b = LU._d, B._d
    if left:  # A^H X = B is A^T conj(X) = conj(B)
        x = solve_factored(lu, pivots._d, np.conj(b) if adjoint else b, trans=adjoint)
        x = np.conj(x) if adjoint else x
    else:  # X A = B is A^T X^T = B^T; X A^H = B is A conj(X)^T = conj(B)^T
        bt = np.swapaxes(np.conj(b) if adjoint else b, -1, -2)
        x = np.swapaxes(solve_factored(lu, pivots._d, bt, trans=not adjoint), -1, -2)
        x = np.conj(x) if adjoint else x
    out = lapack(np.asarray(x, np.result_type(lu, b)))
    saved = {"LU": LU, "pivots": pivots, "left": left, "adjoint": adjoint}
    return record(LinalgLuSolveBackward0, out, (LU, B), saved, "result", shapes=(lu.shape, b.shape))


class LinalgLuSolveBackward0(OpNode):
    """ATen's gradients: B's is lu_solve(LU, pivots, grad, left, !adjoint); LU's is op(A)'s
    gradient -op(A)^-H gX X^H (as A's) taken through A = P L U onto L's strict lower and U's
    upper triangle."""

    __slots__ = ()
    _complex_aware = True  # the formula takes conjugate transposes itself
    _name = "LinalgLuSolveBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul

        g: Any = grads[0]
        LU: Any = self.saved("LU")
        pivots: Any = self.saved("pivots")
        x: Any = self.saved("result")
        left, adjoint = self.saved("left"), self.saved("adjoint")
        assert self._shapes is not None
        gb = linalg_lu_solve(LU, pivots, g, left=left, adjoint=not adjoint)
        glu = None
        if self.needs(0):
            if left:  # op(A) X = B: g_op(A) = -gB X^H
                ga = -matmul(x, _mh(gb)) if adjoint else -matmul(gb, _mh(x))
            else:  # X op(A) = B: g_op(A) = -X^H gB
                ga = -matmul(_mh(gb), x) if adjoint else -matmul(_mh(x), gb)
            P, L, U = lu_unpack(LU, pivots)
            pga = matmul(_mh(P), ga)  # A = P L U: dA = P (dL U + L dU)
            glu = matmul(pga, _mh(U)).tril(-1) + matmul(_mh(L), pga).triu()
            glu = unbroadcast(glu, self._shapes[0])
        return [glu, unbroadcast(gb, self._shapes[1]) if self.needs(1) else None]


def _mh(t: Tensor) -> Tensor:
    return _mt(t).conj() if t.is_complex() else _mt(t)


def lu_solve(input: Tensor, LU_data: Tensor, LU_pivots: Tensor, *,
                        out: Any = None) -> Tensor:  # fmt: skip
    """`torch.lu_solve(B, LU, pivots)` (deprecated, warned once, and once more for `out=` as
    ATen's lu_solve_out warns from its own line): `linalg.lu_solve`."""
    if out is None:
        warn_once(_LU_SOLVE_DEPRECATED.format(2230))
        return linalg_lu_solve(LU_data, LU_pivots, input)
    from engine.ops.out_params import with_out

    warn_once(_LU_SOLVE_DEPRECATED.format(2242))
    written: Tensor = with_out(lambda: linalg_lu_solve(LU_data, LU_pivots, input), "lu_solve")(
        out=out
    )
    return written


def lu(A: Tensor, pivot: bool = True, get_infos: bool = False) -> Any:
    """`torch.lu` (deprecated, warned once): (LU, pivots), with infos when asked."""
    warn_once(_LU_DEPRECATED)
    LU, pivots, info = lu_factor_ex(A, pivot=pivot)
    return rt._lu_with_info((LU, pivots, info)) if get_infos else (LU, pivots)


def _float_or_complex(name: str, a: np.ndarray[Any, Any]) -> None:
    """getrf takes complex matrices too (the other decompositions' `_float` refuses them)."""
    _float(name, a.real if a.dtype.kind == "c" else a)


def _pivoting(name: str, pivot: bool) -> None:
    if not pivot:
        raise RuntimeError(f"{name}: LU without pivoting is not implemented on the CPU")


_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2073.)"
)

_LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
    "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = "
    "torch.linalg.lu_solve(LU, pivots, B) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:{}.)"
)

OPS = (
    Op("lu", lu, out=False),
    Op("lu_solve", lu_solve),
    Op("lu_unpack", lu_unpack, method=False, out=True),
)
