"""Matrix decompositions: svd, qr, eigh, cholesky, slogdet (real inputs, batched).

Each is one node as in PyTorch (`LinalgSvdBackward0`, ...) saving its outputs under PyTorch's
names; backward formulas are the standard ones PyTorch uses (written with engine ops, so
`create_graph=True` works). Eigenvector/singular-vector signs are LAPACK's, as NumPy's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine import return_types as rt
from engine._layout import lapack
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads, SavedTensor
from engine.ops._core import OpNode, record_multi, zeros_for
from engine.ops.complex import not_implemented
from engine.ops.linalg_solve import LinAlgError, _mt, _square, floating_input
from engine.ops.table import Op


def _const(a: np.ndarray[Any, Any]) -> Tensor:
    return make(a, False, None, 0)


def _eye_like(x: Tensor, n: int) -> Tensor:
    return _const(np.eye(n, dtype=x._d.dtype))


def _float(name: str, a: np.ndarray[Any, Any]) -> None:
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    floating_input(name, a)


# -- svd ---------------------------------------------------------------------------------
def _svd(A: Tensor, full_matrices: bool) -> list[Tensor]:
    a = A._d
    _float("linalg.svd", a)
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    datas = [lapack(u.astype(a.dtype)), s.astype(a.dtype), lapack(vh.astype(a.dtype))]
    extra = {"S_sym_argsize_minus_1": s.shape[-1], "full_matrices": full_matrices}
    outs = record_multi(LinalgSvdBackward0, datas, (A,), extra, out_saved=("U", "S", "Vh"))
    return outs


def linalg_svd(A: Tensor, full_matrices: bool = True, *, driver: Any = None) -> Any:
    """`torch.linalg.svd`: A = U diag(S) Vh."""
    return rt.linalg_svd(_svd(A, full_matrices))


def svdvals(A: Tensor, *, driver: Any = None) -> Tensor:
    """`torch.linalg.svdvals`: the singular values (the same node as svd, as in PyTorch)."""
    return _svd(A, False)[1]


def svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> rt.svd:
    """`torch.svd`: (U, S, V) with V = Vh.mT (a TransposeBackward0, as PyTorch records it)."""
    u, s, vh = _svd(input, not some)
    return rt.svd((u, s, _mt(vh)))


class LinalgSvdBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgSvdBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul

        gu0, gs0, gvh0 = grads
        u: Any = self.saved("U")
        s: Any = self.saved("S")
        vh: Any = self.saved("Vh")
        m, n, k = u._d.shape[-2], vh._d.shape[-1], s._d.shape[-1]
        if self.saved("full_matrices"):  # PyTorch differentiates the reduced factors
            u, vh = u[..., :k], vh[..., :k, :]
            gu0 = None if gu0 is None else gu0[..., :k]
            gvh0 = None if gvh0 is None else gvh0[..., :k, :]
        if gu0 is None and gvh0 is None:
            assert gs0 is not None
            return [matmul(u * gs0.unsqueeze(-2), vh)]
        s2 = s * s
        e = s2.unsqueeze(-2) - s2.unsqueeze(-1)
        e = e + _eye_like(s, k)  # E with ones on the diagonal (the term there is zero anyway)
        ga: Any = 0
        if gu0 is not None:
            uhgu = matmul(_mt(u), gu0)
            ga = ga + (uhgu - _mt(uhgu)) * s.unsqueeze(-2)
        if gvh0 is not None:
            vhgv = matmul(vh, _mt(gvh0))
            ga = ga + s.unsqueeze(-1) * (vhgv - _mt(vhgv))
        ga = ga / e
        if gs0 is not None:
            ga = ga + _diag(gs0)
        if m > k and gu0 is not None:
            ga = matmul(u, ga)
            gusinv = gu0 / s.unsqueeze(-2)
            ga = ga + gusinv - matmul(u, matmul(_mt(u), gusinv))
            return [matmul(ga, vh)]
        if n > k and gvh0 is not None:
            ga = matmul(ga, vh)
            sinvgvh = gvh0 / s.unsqueeze(-1)
            ga = ga + sinvgvh - matmul(matmul(sinvgvh, _mt(vh)), vh)
            return [matmul(u, ga)]
        return [matmul(matmul(u, ga), vh)]


def _diag(v: Tensor) -> Tensor:
    from engine.ops.shape_composite import diag_embed

    return diag_embed(v)


# -- eigh --------------------------------------------------------------------------------
def _eigh(A: Tensor, UPLO: str) -> list[Tensor]:
    a = A._d
    if _dtype.kind(a.dtype) not in "fc":
        raise not_implemented("linalg_eigh_cpu", A)
    _square("linalg.eigh", a)
    w, v = np.linalg.eigh(a, UPLO=UPLO)  # type: ignore[call-overload]
    datas = [w.astype(a.dtype), lapack(v.astype(a.dtype))]
    outs = record_multi(LinalgEighBackward0, datas, (A,), out_saved=("eigenvalues", "eigenvectors"))
    return outs


def eigh(A: Tensor, UPLO: str = "L") -> Any:
    """`torch.linalg.eigh`: eigenvalues (ascending) and eigenvectors of a symmetric matrix."""
    return rt.linalg_eigh(_eigh(A, UPLO))


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:
    """`torch.linalg.eigvalsh`: the eigenvalues of a symmetric matrix."""
    return _eigh(A, UPLO)[0]


class LinalgEighBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgEighBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul

        gl, gv = grads
        lam: Any = self.saved("eigenvalues")
        v: Any = self.saved("eigenvectors")
        if gv is None:
            assert gl is not None
            return [matmul(v * gl.unsqueeze(-2), _mt(v))]
        n = lam._d.shape[-1]
        e = lam.unsqueeze(-2) - lam.unsqueeze(-1)
        e = e + _eye_like(lam, n)
        vhgv = matmul(_mt(v), gv)
        # PyTorch projects V^H gV onto the skew-symmetric matrices before dividing by E
        inner: Any = ((vhgv - _mt(vhgv)) * 0.5) / e
        if gl is not None:
            inner = inner + _diag(gl)
        return [matmul(v, matmul(inner, _mt(v)))]


# -- qr ----------------------------------------------------------------------------------
def linalg_qr(A: Tensor, mode: str = "reduced") -> Any:
    """`torch.linalg.qr`: A = Q R (mode 'reduced', 'complete' or 'r')."""
    a = A._d
    _float("linalg.qr", a)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
            "'r', or 'complete'"
        )
    q, r = np.linalg.qr(a, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = np.zeros((0,), a.dtype)
    datas = [lapack(q.astype(a.dtype)), lapack(r.astype(a.dtype))]
    outs = record_multi(LinalgQrBackward0, datas, (A,), {"mode": mode}, out_saved=("Q", "R"))
    return rt.linalg_qr(outs)


def qr(input: Tensor, some: bool = True) -> rt.qr:
    """`torch.qr`: the reduced (or complete when `some=False`) QR decomposition."""
    return rt.qr(linalg_qr(input, "reduced" if some else "complete"))


class LinalgQrBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgQrBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul
        from engine.ops.tensor_shape import tril

        mode = self.saved("mode")
        q: Any = self.saved("Q")
        r: Any = self.saved("R")
        m, n = q._d.shape[-2], r._d.shape[-1]
        if mode == "r":
            raise RuntimeError(
                "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
                "through linalg.qr."
            )
        if m < n or (mode == "complete" and m > n):
            raise NotImplementedError(
                "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
            )
        gq, gr = zeros_for(self, grads)
        # m >= n: gA = (gQ + Q copyltu(M)) R^{-H}, M = R gR^H - gQ^H Q
        mm = matmul(r, _mt(gr)) - matmul(_mt(gq), q)
        low = tril(mm, -1)
        sym = low + _mt(low) + _diag(mm.diagonal(0, -2, -1))
        b = gq + matmul(q, sym)
        from engine.ops.linalg_solve import solve

        return [_mt(solve(r, _mt(b)))]


# -- cholesky ----------------------------------------------------------------------------
def _not_pd_order(a: np.ndarray[Any, Any]) -> int:
    m = np.asarray(a.reshape(-1, a.shape[-2], a.shape[-1]), np.float64)
    for b in m:
        for k in range(1, b.shape[0] + 1):
            try:
                np.linalg.cholesky(b[:k, :k])
            except np.linalg.LinAlgError:
                return k
    return int(m.shape[-1])


def cholesky(A: Tensor, *, upper: bool = False) -> Tensor:
    """`torch.linalg.cholesky`: lower-triangular L with A = L L^H (U = L^H when `upper`)."""
    a = A._d
    _square("linalg.cholesky", a)
    try:
        low = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        raise LinAlgError(
            "linalg.cholesky: The factorization could not be completed because the input is not "
            f"positive-definite (the leading minor of order {_not_pd_order(a)} is not "
            "positive-definite)."
        ) from None
    out = np.swapaxes(low, -1, -2).copy() if upper else low
    datas = [lapack(out.astype(a.dtype))]
    (res,) = record_multi(
        LinalgCholeskyExBackward0, datas, (A,), {"upper": upper}, out_saved=("L",)
    )
    return res


class LinalgCholeskyExBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgCholeskyExBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [cholesky_grad(grads[0], self.saved("L"), self.saved("upper"))]


def cholesky_grad(g: Any, low: Any, upper: bool) -> Tensor:
    """gA = L^{-H} Phi(L^H gL) L^{-1}, Phi = lower triangle with a halved diagonal; symmetrized."""
    from engine.ops.linalg_solve import inv
    from engine.ops.matmul import matmul
    from engine.ops.tensor_shape import tril

    if upper:
        low, g = _mt(low), _mt(g)
    n = low._d.shape[-1]
    p = tril(matmul(_mt(low), g)) * (1 - 0.5 * _eye_like(low, n))
    li = inv(low)
    x = matmul(_mt(li), matmul(p, li))
    return (x + _mt(x)) * 0.5


# -- slogdet -----------------------------------------------------------------------------
def _lu(a: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """LAPACK getrf's packed LU and 1-based pivots (partial pivoting), batched."""
    m = np.array(a, dtype=np.float64).reshape(-1, a.shape[-2], a.shape[-1])
    n = m.shape[-1]
    piv = np.zeros((m.shape[0], n), np.int32)
    rows = np.arange(m.shape[0])
    for k in range(n):
        p = k + np.argmax(np.abs(m[:, k:, k]), axis=1)
        piv[:, k] = p + 1
        rk = m[rows, k].copy()
        m[rows, k] = m[rows, p]
        m[rows, p] = rk
        pv = m[:, k, k]
        with np.errstate(all="ignore"):
            f = np.where(pv[:, None] != 0, m[:, k + 1 :, k] / pv[:, None], 0.0)
        m[:, k + 1 :, k] = f
        m[:, k + 1 :, k + 1 :] -= f[:, :, None] * m[:, k : k + 1, k + 1 :]
    return m.reshape(a.shape).astype(a.dtype), piv.reshape(a.shape[:-1])


def linalg_slogdet(A: Tensor) -> Any:
    """`torch.linalg.slogdet`: (sign, log|det|)."""
    a = A._d
    _square("linalg.slogdet", a)
    lu, piv = _lu(a)
    d = np.diagonal(lu, 0, -2, -1).astype(np.float64)
    swaps = np.sum(piv != np.arange(1, a.shape[-1] + 1), axis=-1)
    sign = np.where(np.any(d == 0, axis=-1), 0.0, np.prod(np.sign(d), axis=-1) * (-1.0) ** swaps)
    with np.errstate(divide="ignore"):
        logabs = np.sum(np.log(np.abs(d)), axis=-1)
    datas = [np.asarray(sign, a.dtype), np.asarray(logabs, a.dtype)]
    outs = record_multi(LinalgSlogdetBackward0, datas, (A,), {"A": A})
    node = outs[1]._fn
    if node is not None and node._saved is not None:
        node._saved.update(LU=SavedTensor(_const(lu), False), pivots=_const(piv))
        node._saved["sign"] = SavedTensor(outs[0], True)
    return rt.linalg_slogdet(outs)


def slogdet(A: Tensor) -> rt.slogdet:
    """`torch.slogdet`: as linalg.slogdet, under its own result type."""
    return rt.slogdet(linalg_slogdet(A))


def logdet(A: Tensor) -> Tensor:
    """`torch.logdet`: log det A (nan for a negative determinant), through slogdet."""
    from engine.ops.pointwise import where

    sign, logabs = linalg_slogdet(A)
    nan = _const(np.asarray(np.nan, A._d.dtype))
    return where(sign == -1, nan, logabs)


class LinalgSlogdetBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgSlogdetBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.linalg_solve import inv

        g = grads[1]
        a: Any = self.saved("A")
        if g is None:
            return [_const(np.zeros(a._d.shape, a._d.dtype))]
        return [g.unsqueeze(-1).unsqueeze(-1) * _mt(inv(a))]


OPS = [
    Op("slogdet", slogdet),
    Op("logdet", logdet),
    Op("svd", svd, out=True),
    Op("qr", qr, out=True),
]
