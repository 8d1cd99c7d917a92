"""The pseudo-inverse and least squares: `linalg.pinv` and `linalg.lstsq`, one node each.

`lstsq` reports what each LAPACK driver reports (gelsy, the CPU default: the rank only; gelsd and
gelss: residuals, rank and singular values; gels: residuals); its gradient goes through the
pseudo-inverse, as PyTorch's does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine import return_types as rt
from engine._layout import lapack
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, record_multi, unbroadcast
from engine.ops.broadcasting import broadcast_shape
from engine.ops.complex import type_title
from engine.ops.linalg_decomp import _const
from engine.ops.linalg_solve import _mt, floating_input
from engine.ops.table import Op


def _pinv_array(a: np.ndarray[Any, Any], rtol: Any = None, atol: Any = None) -> Any:
    m, n = a.shape[-2], a.shape[-1]
    u, s, vh = np.linalg.svd(a, full_matrices=False)  # in a's dtype, as LAPACK runs for PyTorch
    smax = s.max(axis=-1, keepdims=True) if s.size else s
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else max(m, n) * np.finfo(a.dtype).eps
    cut = np.maximum(0.0 if atol is None else atol, rtol * smax)
    with np.errstate(divide="ignore"):
        sinv = np.where(s > cut, 1 / s, 0).astype(a.dtype)
    return np.matmul(np.swapaxes(vh, -1, -2) * sinv[..., None, :], np.swapaxes(u, -1, -2))


_PINV_TYPES = frozenset(np.dtype(t) for t in ("float32", "float64", "complex64", "complex128"))


def pinv(
    A: Tensor, *, atol: Any = None, rtol: Any = None, hermitian: bool = False, rcond: Any = None
) -> Tensor:
    """`torch.linalg.pinv`: the Moore-Penrose pseudo-inverse (by SVD)."""
    a = A._d
    if a.ndim < 2 or a.dtype not in _PINV_TYPES:
        raise RuntimeError(
            f"linalg.pinv({type_title(a.dtype)}{{{list(a.shape)}}}): expected a tensor with 2 or "
            "more dimensions of float, double, cfloat or cdouble types"
        )
    floating_input("linalg.pinv", a)
    if rcond is not None:
        rtol = rcond
    out = _pinv_array(a, rtol, atol).astype(a.dtype)
    return record(LinalgPinvBackward0, out, (A,), {"self": A}, "result")


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """`torch.pinverse`: pinv with a relative cutoff `rcond`."""
    return pinv(input, rtol=rcond)


def _pinv_grad(a: Tensor, p: Tensor, gp: Tensor) -> Tensor:
    """dA from dP for P = pinv(A) (real case), associated as PyTorch's pinv_backward does."""
    from engine.ops.matmul import matmul

    m, n = a._d.shape[-2], a._d.shape[-1]
    ph, gh = _mt(p), _mt(gp)
    r: Any
    if m <= n:
        k = matmul(gh, p)
        kph = matmul(k, ph)
        r = -_mt(matmul(p, k)) + kph - matmul(matmul(a, p), kph)
        return r + matmul(matmul(ph, p), gh - matmul(k, a))  # type: ignore[no-any-return]
    k = matmul(p, gh)
    phk = matmul(ph, k)
    r = -_mt(matmul(k, p)) + phk - matmul(matmul(phk, p), a)
    return r + matmul(matmul(gh - matmul(a, k), p), ph)  # type: ignore[no-any-return]


class LinalgPinvBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgPinvBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [_pinv_grad(self.saved("self"), self.saved("result"), g)]


def lstsq(A: Tensor, B: Tensor, rcond: Any = None, *, driver: Any = None) -> Any:
    """`torch.linalg.lstsq`: the least-squares solution X of A X = B."""
    a, b = A._d, B._d
    drv = _check_lstsq(a, b, driver)
    vec = b.ndim == a.ndim - 1
    bb = b[..., None] if vec else b
    x = np.matmul(_pinv_array(a, rcond), bb)
    dt = np.result_type(a, b)
    x = (x[..., 0] if vec else x).astype(dt)
    sv = np.linalg.svd(np.asarray(a, np.float64), compute_uv=False)
    rank_a = np.asarray(np.linalg.matrix_rank(np.asarray(a, np.float64)), np.int64)
    m, n = a.shape[-2], a.shape[-1]
    # residuals: only drivers other than gelsy, and only for tall full-rank systems
    if drv != "gelsy" and m > n and np.all(rank_a == n):
        res = np.sum((np.matmul(a, x if not vec else x[..., None]) - bb) ** 2, axis=-2)
        resid = (res[..., 0] if vec else res).astype(dt)
    else:
        resid = np.zeros((0,), dt)
    saved = {"self": A, "b": B}
    shapes = (a.shape, b.shape)
    outs = record_multi(
        LinalgLstsqBackward0,
        [x if vec else lapack(x), resid],
        (A, B),
        saved,
        out_saved=("solution", ""),
        shapes=shapes,
    )
    rank = np.zeros((0,), np.int64) if drv == "gels" else rank_a
    svals = sv.astype(a.dtype) if drv in ("gelsd", "gelss") else np.zeros((0,), a.dtype)
    return rt.linalg_lstsq((outs[0], outs[1], make(rank, False, None, 0), _const(svals)))


def _check_lstsq(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], driver: Any) -> str:
    """ATen's checks of lstsq's operands, in its order; the LAPACK driver's name."""
    name = "torch.linalg.lstsq"
    if a.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if b.ndim < 1:
        raise RuntimeError(f"{name}: other must have at least 1 dimension.")
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"{name}: Expected input and other to have the same dtype, but got input's dtype "
            f"{type_title(a.dtype)} and other's dtype {type_title(b.dtype)}"
        )
    vec = a.ndim - b.ndim
    if not 0 <= vec <= 1:
        raise RuntimeError(
            f"{name}: input.dim() must be greater or equal to other.dim() and "
            "(input.dim() - other.dim()) <= 1"
        )
    if a.shape[-2] != (b.shape[-1] if vec else b.shape[-2]):
        raise RuntimeError(f"{name}: input.size(-2) should match other.size({-1 if vec else -2})")
    drv = "gelsy" if driver is None else str(driver).lower()
    if drv not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(
            f"{name}: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"
        )
    broadcast_shape(a.shape[:-2], b.shape[: b.ndim - 2 + vec])
    if _dtype.kind(a.dtype) not in "fc":
        raise RuntimeError("This function doesn't handle types other than float and double")
    return drv


class LinalgLstsqBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgLstsqBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul

        g = grads[0]
        a: Any = self.saved("self")
        b: Any = self.saved("b")
        if g is None:
            return [None, None]
        vec = b._d.ndim == a._d.ndim - 1
        p = pinv(a if self.needs(0) else a.detach())
        gx = g.unsqueeze(-1) if vec else g
        bb = b.unsqueeze(-1) if vec else b
        ga = _pinv_grad(a, p, matmul(gx, _mt(bb))) if self.needs(0) else None
        gb = matmul(_mt(p), gx) if self.needs(1) else None
        if gb is not None and vec:
            gb = gb.squeeze(-1)
        assert self._shapes is not None
        return [
            None if ga is None else unbroadcast(ga, self._shapes[0]),
            None if gb is None else unbroadcast(gb, self._shapes[1]),
        ]


OPS = [
    Op("pinverse", pinverse),
]
