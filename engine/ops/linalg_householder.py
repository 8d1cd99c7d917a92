"""Householder reflectors: `torch.geqrf` (LAPACK's compact QR) and
`torch.linalg.householder_product` (LAPACK's orgqr, also `torch.orgqr`).

geqrf leaves R on and above the diagonal and the reflectors' tails below it, with their
scales in `tau`; PyTorch defines no derivative for it (`GeqrfBackward0` raises). The product
Q = H_0 H_1 ... H_{k-1} (first n columns), H_i = I - tau_i v_i v_i^T, v_i = e_i + A[i+1:, i],
is differentiable: its backward is written with engine ops, so `create_graph=True` works.

The forward follows LAPACK's unblocked orgqr (`org2r`, `larf`) step for step, so its zeros
carry LAPACK's signs: the reflectors' columns are scaled by -tau (-0 for a +0 entry), the
entries above them are set to +0, and `larf` leaves alone the rows past the last nonzero of v
and the columns it would change by zero.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine import return_types as rt
from engine._dtype import type_name
from engine._layout import lapack
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, record_multi
from engine.ops.table import Op


def _batched(a: np.ndarray[Any, Any], fn: Any, out_shapes: Any) -> Any:
    """Apply `fn` to each matrix of a batch (and its matching rows of the other arrays)."""
    batch = a.shape[:-2]
    outs = [np.empty(batch + s, a.dtype) for s in out_shapes]
    for idx in np.ndindex(batch):
        for o, r in zip(outs, fn(idx), strict=True):
            o[idx] = r
    return outs


class GeqrfBackward0(OpNode):
    __slots__ = ()
    _name = "GeqrfBackward0"

    def apply(self, grads: Grads) -> Grads:
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def geqrf(input: Tensor) -> Any:
    """(a, tau): R above the diagonal of `a`, Householder reflectors below it."""
    a = input._d
    if a.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    m, n = a.shape[-2:]

    def one(idx: tuple[int, ...]) -> tuple[Any, Any]:
        h, tau = np.linalg.qr(a[idx], mode="raw")
        return h.T, tau

    outs = _batched(a, one, [(m, n), (min(m, n),)])
    outs[0] = lapack(outs[0])
    return rt.geqrf(tuple(record_multi(GeqrfBackward0, outs, (input,))))


def larf(c: np.ndarray[Any, Any], v: np.ndarray[Any, Any], tau: Any, left: bool) -> None:
    """LAPACK's larf in place: c <- H c (left) or c H (right), H = I - tau v v^H, touching
    only the rows (left; columns when right) up to v's last nonzero and, as the reference
    ger does, only the columns (rows) whose product with v is nonzero."""
    nz = np.flatnonzero(v)
    if tau == 0 or not nz.size:
        return
    lv = int(nz[-1]) + 1
    vv = v[:lv]
    if left:
        block = c[:lv]
        w = block.conj().T @ vv  # C^H v
        hit = np.flatnonzero(w != 0)
        block[:, hit] += np.outer(vv, -tau * w[hit].conj())
    else:
        block = c[:, :lv]
        w = block @ vv  # C v
        hit = np.flatnonzero(vv != 0)
        block[:, hit] += np.outer(w, -tau * vv[hit].conj())


def org2r(a: np.ndarray[Any, Any], tau: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """LAPACK's org2r on one matrix: the first n columns of H_0 ... H_{k-1}."""
    q = a.copy()
    n = q.shape[1]
    k = tau.shape[-1]
    q[:, k:] = 0
    q[np.arange(k, n), np.arange(k, n)] = 1
    for i in range(k - 1, -1, -1):
        if i < n - 1:
            v = np.concatenate([np.ones(1, q.dtype), q[i + 1 :, i]])
            larf(q[i:, i + 1 :], v, tau[i], True)
        q[i + 1 :, i] *= -tau[i]
        q[i, i] = 1 - tau[i]
        q[:i, i] = 0
    return q


def _vectors(a: Tensor, i: int) -> Tensor:
    """v_i: 1 at row i, A's column i below it, 0 above (batched over leading dims)."""
    m = a._d.shape[-2]
    below = make((np.arange(m) > i).astype(a._d.dtype), False, None, 0)
    unit = make((np.arange(m) == i).astype(a._d.dtype), False, None, 0)
    return a[..., :, i] * below + unit


def _reflector(a: Tensor, tau: Tensor, i: int) -> Tensor:
    v = _vectors(a, i)
    m = a._d.shape[-2]
    eye = make(np.eye(m, dtype=a._d.dtype), False, None, 0)
    return eye - tau[..., i].unsqueeze(-1).unsqueeze(-1) * (v.unsqueeze(-1) * _c(v).unsqueeze(-2))


def _c(x: Tensor) -> Tensor:
    """conj(x), recorded only for complex x."""
    return x.conj() if _dtype.kind(x._d.dtype) == "c" else x


def adjoint(x: Tensor) -> Tensor:
    """x^H: x.mH for complex x, x.mT for real."""
    return x.mH if _dtype.kind(x._d.dtype) == "c" else x.mT


def householder_grads(a: Tensor, tau: Tensor, g: Tensor, need_a: bool, need_tau: bool) -> Any:
    """The gradients of a and tau for g, the gradient of the first g.shape[-1] columns of
    H_0 ... H_{k-1} (k = tau.shape[-1]); a's columns from k on get zeros. Engine ops only.

    With G_i the gradient of H_i = I - tau_i v_i v_i^H: tau_i gets -v_i^H G_i v_i and v_i gets
    -(conj(tau_i) G_i v_i + tau_i G_i^H v_i) (for real inputs the conjugations vanish)."""
    m, n = a._d.shape[-2:]
    k = tau._d.shape[-1]
    eye = make(np.eye(m, dtype=a._d.dtype), False, None, 0)
    hs = [_reflector(a, tau, i) for i in range(k)]
    # suffix[i] = H_{i+1} ... H_{k-1} E (the columns g has)
    suffix: list[Any] = [None] * k
    acc: Any = eye[:, : g._d.shape[-1]]
    for i in range(k - 1, -1, -1):
        suffix[i] = acc
        acc = hs[i] @ acc
    from engine.ops.pointwise import where

    prefix: Any = eye
    cols: list[Any] = []
    dtaus: list[Any] = []
    zero = make(np.zeros((*g._d.shape[:-2], m), g._d.dtype), False, None, 0)
    for i in range(k):
        grad_h = adjoint(prefix) @ g @ adjoint(suffix[i])
        v = _vectors(a, i)
        hv = (grad_h @ v.unsqueeze(-1)).squeeze(-1)
        htv = (adjoint(grad_h) @ v.unsqueeze(-1)).squeeze(-1)
        dtaus.append(-(_c(v) * hv).sum(-1))
        below = make(np.arange(m) > i, False, None, 0)
        t = tau[..., i].unsqueeze(-1)
        cols.append(where(below, -(_c(t) * hv + t * htv), 0.0))
        prefix = prefix @ hs[i]
    from engine.ops.tensor_shape import stack

    cols += [zero] * (n - k)
    da = stack(cols, -1) if need_a else None
    dt = stack(dtaus, -1) if need_tau and dtaus else None
    return da, dt


class LinalgHouseholderProductBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgHouseholderProductBackward0"
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        a: Any = self.saved("input")
        return list(householder_grads(a, self.saved("tau"), g, self.needs(0), self.needs(1)))


def householder_product(input: Tensor, tau: Tensor, *, out: Any = None) -> Tensor:
    """The first n columns of H_0 ... H_{k-1} (LAPACK orgqr)."""
    a, t = input._d, tau._d
    name = "torch.linalg.householder_product"
    if a.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    m, n = a.shape[-2:]
    if m < n:
        raise RuntimeError(
            f"{name}: input.shape[-2] must be greater than or equal to input.shape[-1]"
        )
    if n < t.shape[-1]:
        raise RuntimeError(
            f"{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]"
        )
    if a.ndim - t.ndim != 1:
        raise RuntimeError(
            f"{name}: Expected tau to have one dimension less than input, but got tau.ndim "
            f"equal to {t.ndim} and input.ndim is equal to {a.ndim}"
        )
    if a.ndim > 2 and t.shape[:-1] != a.shape[:-2]:
        raise RuntimeError(
            f"{name}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
            f"{list(t.shape[:-1])}"
        )
    if t.dtype != a.dtype:
        raise RuntimeError(
            f"{name}: tau dtype {type_name(tau.dtype)} does not match input dtype "
            f"{type_name(input.dtype)}"
        )
    if _dtype.kind(a.dtype) not in "fc":
        raise NotImplementedError(f"\"orgqr_cpu\" not implemented for '{type_name(input.dtype)}'")
    (q,) = _batched(a, lambda idx: (org2r(a[idx], t[idx]),), [(m, n)])
    res = record(
        LinalgHouseholderProductBackward0,
        lapack(q),
        (input, tau),
        {"input": input, "tau": tau},
        "result",  # saved as PyTorch saves it (householder_product_backward takes it)
    )
    if out is None:
        return res
    from engine.ops.out_params import with_out

    written: Tensor = with_out(lambda: res, "linalg_householder_product")(out=out)
    return written


def orgqr(self: Tensor, input2: Tensor) -> Tensor:
    """`torch.orgqr`: householder_product by its LAPACK name."""
    return householder_product(self, input2)


OPS = [
    Op("geqrf", geqrf, out=True),
    Op("orgqr", orgqr, out=True),
]
