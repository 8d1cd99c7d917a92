"""Householder reflectors: `torch.geqrf` (LAPACK's compact QR) and
`torch.linalg.householder_product` (LAPACK's orgqr, also `torch.orgqr`).

geqrf leaves R on and above the diagonal and the reflectors' tails below it, with their
scales in `tau`; PyTorch defines no derivative for it (`GeqrfBackward0` raises). The product
Q = H_0 H_1 ... H_{k-1} (first n columns), H_i = I - tau_i v_i v_i^T, v_i = e_i + A[i+1:, i],
is differentiable: its backward is written with engine ops, so `create_graph=True` works.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import return_types as rt
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
    return eye - tau[..., i].unsqueeze(-1).unsqueeze(-1) * (v.unsqueeze(-1) * v.unsqueeze(-2))


class LinalgHouseholderProductBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgHouseholderProductBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        a: Any = self.saved("input")
        tau: Any = self.saved("tau")
        m, n = a._d.shape[-2:]
        k = tau._d.shape[-1]
        eye = make(np.eye(m, dtype=a._d.dtype), False, None, 0)
        hs = [_reflector(a, tau, i) for i in range(k)]
        # suffix[i] = H_{i+1} ... H_{k-1} E (the first n columns)
        suffix: list[Any] = [None] * k
        acc: Any = eye[:, :n]
        for i in range(k - 1, -1, -1):
            suffix[i] = acc
            acc = hs[i] @ acc
        from engine.ops.pointwise import where

        prefix: Any = eye
        cols: list[Any] = []
        dtaus: list[Any] = []
        zero = make(np.zeros((*g._d.shape[:-2], m), g._d.dtype), False, None, 0)
        for i in range(k):
            grad_h = prefix.mT @ g @ suffix[i].mT
            v = _vectors(a, i)
            hv = (grad_h @ v.unsqueeze(-1)).squeeze(-1)
            htv = (grad_h.mT @ v.unsqueeze(-1)).squeeze(-1)
            dtaus.append(-(v * hv).sum(-1))
            below = make(np.arange(m) > i, False, None, 0)
            cols.append(where(below, -tau[..., i].unsqueeze(-1) * (hv + htv), 0.0))
            prefix = prefix @ hs[i]
        from engine.ops.tensor_shape import stack

        cols += [zero] * (n - k)
        da = stack(cols, -1) if self.needs(0) else None
        dt = stack(dtaus, -1) if self.needs(1) and dtaus else None
        return [da, dt]


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
    k = t.shape[-1]
    wide = a.astype(np.float64)

    def one(idx: tuple[int, ...]) -> tuple[Any]:
        q = np.eye(m, n)
        for i in range(k - 1, -1, -1):
            v = np.zeros(m)
            v[i] = 1.0
            v[i + 1 :] = wide[idx][i + 1 :, i]
            q = q - float(t[idx][i]) * np.outer(v, v @ q)
        return (q,)

    (q,) = _batched(a, one, [(m, n)])
    res = record(
        LinalgHouseholderProductBackward0,
        lapack(q.astype(a.dtype)),
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
