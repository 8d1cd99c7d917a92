"""Square-matrix functions: inv, det, solve (batched over leading dims, as torch.linalg).

Gradients follow PyTorch's formulas: d inv = -inv^T g inv^T, d det = g det A^-T (the adjugate
when A is singular), and solve's through a second solve with A^T.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._layout import lapack
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, unbroadcast, wants_grad
from engine.ops.complex import type_title
from engine.ops.table import Op


class _LinAlgError(RuntimeError):
    """`torch.linalg.LinAlgError`: a singular or otherwise unusable matrix."""


LinAlgError = _LinAlgError


_HOLOMORPHIC = ("linalg.inv", "linalg.det", "linalg.solve")


def _square(name: str, a: np.ndarray[Any, Any]) -> None:
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(
            f"{name}: A must be batches of square matrices, but they are {a.shape[-2]} by "
            f"{a.shape[-1]} matrices"
        )
    # complex only where the real formulas extend holomorphically (ops/complex_grad.py)
    if not (_dtype.kind(a.dtype) == "c" and name in _HOLOMORPHIC):
        floating_input(name, a)


def floating_input(name: str, a: np.ndarray[Any, Any]) -> None:
    """PyTorch's error for an integer or bool matrix; complex ones, which PyTorch takes, are
    refused as what they are: not implemented here yet."""
    kind = _dtype.kind(a.dtype)
    if kind == "c":
        raise NotImplementedError(
            f"{name}: complex input is not supported by backscope's engine yet "
            "(PyTorch supports it)"
        )
    if kind != "f":
        raise RuntimeError(
            f"{name}: Expected a floating point or complex tensor as input. Got "
            f"{type_title(a.dtype)}"
        )


def _zero_pivot(a: np.ndarray[Any, Any]) -> str:
    """Where LU with partial pivoting first meets a zero pivot, as ATen's message says it:
    `(Batch element 1): The diagonal element 2` (no batch part for a single matrix)."""
    from engine.ops.linalg_lu import _factor

    info = _factor(a)[2].reshape(-1)
    i = int(np.flatnonzero(info)[0]) if info.any() else 0
    where = f"(Batch element {i}): " if a.ndim > 2 else ""
    return f"{where}The diagonal element {int(info[i]) or a.shape[-1]}"


def _mt(x: Tensor) -> Tensor:
    from engine.ops.shape import transpose

    return transpose(x, -2, -1)


# -- inv ---------------------------------------------------------------------------------
def inv(A: Tensor) -> Tensor:
    """`torch.linalg.inv`: the inverse of a (batch of) square matrix."""
    a = A._d
    _square("linalg.inv", a)
    try:
        out = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        raise LinAlgError(
            f"linalg.inv: {_zero_pivot(a)} is zero, the inversion could not "
            "be completed because the input matrix is singular."
        ) from None
    out = lapack(out.astype(a.dtype, copy=False))
    return record(LinalgInvExBackward0, out, (A,), None, "inverse")


inverse = inv


class LinalgInvExBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgInvExBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul

        g = grads[0]
        assert g is not None
        it = _mt(self.saved("inverse"))
        return [-matmul(it, matmul(g, it))]


# -- det ---------------------------------------------------------------------------------
def det(A: Tensor) -> Tensor:
    """`torch.linalg.det`: the determinant of a (batch of) square matrix."""
    a = A._d
    _square("linalg.det", a)
    out = np.asarray(_det(a), a.dtype)
    saved: dict[str, Any] = {"A": A}
    if wants_grad(A):  # PyTorch keeps the LU factors its kernel computed (of A.mT)
        saved["LU"], saved["pivots"] = _lu_of_transpose(a)
    return record(LinalgDetBackward0, out, (A,), saved, "result")


def _lu_of_transpose(a: np.ndarray[Any, Any]) -> tuple[Tensor, Tensor]:
    """LAPACK getrf of each A.mT (as PyTorch's det kernel factors A): packed LU, 1-based
    int32 pivots."""
    import scipy.linalg  # type: ignore[import-untyped]  # on first use: most runs never need it

    mats = np.swapaxes(a, -1, -2).reshape(-1, *a.shape[-2:])
    lus, pivs = [], []
    for m in mats:
        if m.size:
            lu, piv = scipy.linalg.lu_factor(m, check_finite=False)
        else:
            lu, piv = m.copy(), np.zeros(0, np.int32)
        lus.append(lu)
        pivs.append(piv + 1)
    lu_all = np.asarray(lus, a.dtype).reshape(a.shape)
    piv_all = np.asarray(pivs, np.int32).reshape(*a.shape[:-2], a.shape[-1])
    return make(lu_all, False, None, 0), make(piv_all, False, None, 0)


def _det(a: np.ndarray[Any, Any]) -> Any:
    """Determinant as LAPACK's getrf gives it: partial-pivot LU, product of U's diagonal in
    order (np.linalg.det rounds differently: 17.999999999999996 where PyTorch prints 18.)."""
    # complex: in its own precision, pivoting on |re| + |im| as LAPACK's cgetrf does
    cx = _dtype.kind(a.dtype) == "c"
    m = np.array(a, dtype=a.dtype if cx else np.float64).reshape(-1, *a.shape[-2:])
    n = m.shape[-1]
    out = np.ones(m.shape[0], m.dtype)
    rows = np.arange(m.shape[0])
    for k in range(n):
        col = m[:, k:, k]
        p = k + np.argmax(np.abs(col.real) + np.abs(col.imag) if cx else np.abs(col), axis=1)
        swap = p != k
        out[swap] = -out[swap]
        rk = m[rows, k].copy()
        m[rows, k] = m[rows, p]
        m[rows, p] = rk
        piv = m[:, k, k]
        out *= piv
        with np.errstate(all="ignore"):
            f = np.where(piv[:, None] != 0, m[:, k + 1 :, k] / piv[:, None], 0.0)
        m[:, k + 1 :] -= f[:, :, None] * m[:, k : k + 1, :]
    return out.reshape(a.shape[:-2])


class LinalgDetBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgDetBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.shape import unsqueeze

        g: Any = grads[0]
        a: Any = self.saved("A")
        r: Any = self.saved("result")
        scale = unsqueeze(unsqueeze(g * r, -1), -1)
        if np.all(r._d != 0):
            return [scale * _mt(inv(a))]
        # singular: PyTorch's LU-based formula gives g * det * (...) = 0 here, not the adjugate
        return [scale * make(np.zeros(a._d.shape, a._d.dtype), False, None, 0)]


# -- solve -------------------------------------------------------------------------------
def _vector_rhs(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> bool:
    # PyTorch treats B as a (batch of) vector when B.ndim == 1 or B.shape == A.shape[:-1]
    return b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """`torch.linalg.solve`: X with A X = B (X A = B when `left=False`)."""
    a, b = A._d, B._d
    _square("linalg.solve", a)
    vec = _vector_rhs(a, b)
    bm = b[..., None] if vec else b
    if bm.shape[-2 if left else -1] != a.shape[-1]:
        raise RuntimeError(
            "linalg.solve: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({a.shape[-2]}x{a.shape[-1]} and "
            f"{bm.shape[-2]}x{bm.shape[-1]})"
        )
    try:
        if not left:
            x = np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
        elif vec:
            x = np.linalg.solve(a, b[..., None])[..., 0]
        else:
            x = np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        raise LinAlgError(
            "torch.linalg.solve: The solver failed because the input matrix is singular."
        ) from None
    return _solved(A, B, x, left, vec)


def _solved(A: Tensor, B: Tensor, x: Any, left: bool, vec: bool) -> Tensor:
    a, b = A._d, B._d
    saved = {"A": A, "left": left}
    out = np.asarray(x, np.result_type(a, b))
    out = out if vec else lapack(out)
    return record(LinalgSolveExBackward0, out, (A, B), saved, "result", shapes=(a.shape, b.shape))


def solve_singular(A: Tensor, B: Tensor, left: bool) -> tuple[Tensor, np.ndarray[Any, Any]]:
    """solve_ex's (result, info) for a singular A: getrf's factors of A and getrs'
    substitutions (X A = B as A^T X^T = B^T), giving infinities and NaNs."""
    from engine.ops.linalg_lu import _factor, solve_factored

    a, b = A._d, B._d
    vec = _vector_rhs(a, b)
    lu, pivots, info = _factor(a)
    if left:
        x = solve_factored(lu, pivots, b[..., None] if vec else b)
        x = x[..., 0] if vec else x
    else:
        x = np.swapaxes(solve_factored(lu, pivots, np.swapaxes(b, -1, -2), True), -1, -2)
    return _solved(A, B, x, left, vec), info


class LinalgSolveExBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgSolveExBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul
        from engine.ops.shape import unsqueeze

        g: Any = grads[0]
        assert self._shapes is not None
        a: Any = self.saved("A")
        x: Any = self.saved("result")
        left = self.saved("left")
        gb: Any = solve(_mt(a), g, left=left)
        ga = None
        if self.needs(0):
            if not left:
                ga = -matmul(_mt(x), gb)
            elif _vector_rhs(a._d, x._d):
                ga = -(unsqueeze(gb, -1) * unsqueeze(x, -2))
            else:
                ga = -matmul(gb, _mt(x))
            ga = unbroadcast(ga, self._shapes[0])
        return [ga, unbroadcast(gb, self._shapes[1]) if self.needs(1) else None]


def matrix_power(A: Tensor, n: int) -> Tensor:
    """A @ A @ ... (n times) by binary exponentiation, as ATen composes it (so MmBackward0s)."""
    from engine.ops.matmul import matmul

    if A._d.ndim < 2 or A._d.shape[-1] != A._d.shape[-2]:
        raise RuntimeError(
            "linalg.matrix_power: A must be batches of square matrices, but they are "
            f"{A._d.shape[-2] if A._d.ndim > 1 else 1} by {A._d.shape[-1]} matrices"
        )
    if n == 0:  # the identity, with a graph through copy_ as in ATen
        eye = make(
            np.broadcast_to(np.eye(A._d.shape[-1], dtype=A._d.dtype), A._d.shape), False, None, 0
        )
        return A.clone().copy_(eye)
    if n == 1:
        return A.clone()
    if n < 0:
        A, n = inv(A), -n
    z: Tensor | None = None
    result: Tensor | None = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = A if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    assert result is not None
    return result


OPS = [
    Op("inverse", inverse, out=True),
    Op("det", det),
    Op("matrix_power", matrix_power, out=True),
]
