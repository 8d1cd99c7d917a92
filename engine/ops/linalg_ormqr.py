"""`torch.ormqr`: Q C, C Q, Q^H C or C Q^H for the Q = H_0 ... H_{k-1} (all m columns) that
geqrf's reflectors stand for, without forming Q (LAPACK's ormqr).

The forward follows LAPACK's unblocked orm2r (one `larf` per reflector, in the order it
takes), so zeros carry LAPACK's signs. The backward (OrmqrBackward0) sends the
gradient to `other` through ormqr with the transpose flipped, and to `input` and `tau` through
householder_product's formula for the gradient of Q.

>>> a, tau = torch.geqrf(torch.eye(2))
>>> torch.ormqr(a, tau, torch.ones(2, 1))
tensor([[1.],
        [1.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._arg_parser import ArgParser, checked
from engine._dtype import type_name
from engine._layout import lapack
from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.linalg_householder import _batched, adjoint, householder_grads, larf
from engine.ops.table import Op

Array = np.ndarray[Any, Any]


def orm2r(a: Array, tau: Array, c: Array, left: bool, trans: bool) -> Array:
    """LAPACK's orm2r on one matrix: op(Q) c (left) or c op(Q), op = ^H when `trans`."""
    c = c.copy()
    k = tau.shape[0]
    for i in range(k) if left == trans else range(k - 1, -1, -1):
        v = np.concatenate([np.ones(1, a.dtype), a[i + 1 :, i]])
        t = tau[i].conj() if trans else tau[i]
        larf(c[i:] if left else c[:, i:], v, t, left)
    return c


def _check(input: Tensor, tau: Tensor, other: Tensor, left: bool, out: Any) -> None:
    """ATen's checks, in its order."""
    a, t, c = input._d, tau._d, other._d
    name = "torch.ormqr"
    if a.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if c.ndim < 2:
        raise RuntimeError(f"{name}: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if c.shape[side] != a.shape[-2]:
        raise RuntimeError(f"{name}: other.shape[{side}] must be equal to input.shape[-2]")
    if t.shape[-1] != min(c.shape[side], a.shape[-1]):
        raise RuntimeError(
            f"{name}: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])"
        )
    if a.ndim - t.ndim != 1:
        raise RuntimeError(
            f"{name}: Expected tau to have one dimension less than input, but got tau.ndim "
            f"equal to {t.ndim} and input.ndim is equal to {a.ndim}"
        )
    if a.ndim != c.ndim:
        raise RuntimeError(
            f"{name}: Expected other to have the same number of dimensions as input, but got "
            f"other.ndim equal to {c.ndim} and input.ndim is equal to {a.ndim}"
        )
    for what, batch in (("tau", t.shape[:-1]), ("other", c.shape[:-2])):
        if a.ndim > 2 and batch != a.shape[:-2]:
            raise RuntimeError(
                f"{name}: Expected batch dimensions of {what} to be equal to input.shape[:-2], "
                f"but got {list(batch)}"
            )
    for what, x in (("tau", tau), ("other", other), ("result", out)):
        if x is not None and x.dtype != input.dtype:
            raise RuntimeError(
                f"{name}: Expected input and {what} to have the same dtype, but input has dtype"
                f"{type_name(input.dtype)} and {what} has dtype {type_name(x.dtype)}"
            )
    if _dtype.kind(a.dtype) not in "fc" or a.dtype == np.float16:
        raise NotImplementedError(f"\"ormqr_cpu\" not implemented for '{type_name(input.dtype)}'")


def _ormqr(
    input: Tensor,
    input2: Tensor,
    input3: Tensor,
    left: bool = True,
    transpose: bool = False,
    *,
    out: Any = None,
) -> Tensor:
    """Q times `input3` (`left`) or `input3` times Q, Q conjugate-transposed when `transpose`."""
    _check(input, input2, input3, left, out)
    a, t, c = input._d, input2._d, input3._d
    (r,) = _batched(
        a, lambda idx: (orm2r(a[idx], t[idx], c[idx], left, transpose),), [c.shape[-2:]]
    )
    saved = {
        "self": input,
        "input2": input2,
        "input3": input3,
        "left": left,
        "transpose": transpose,
    }
    res = record(OrmqrBackward0, lapack(r), (input, input2, input3), saved, "result")
    if out is None:
        return res
    from engine.ops.out_params import with_out

    written: Tensor = with_out(lambda: res, "ormqr")(out=out)
    return written


class OrmqrBackward0(OpNode):
    """other: ormqr with the transpose flipped; input and tau: householder_product's formula
    for the gradient of Q (all m columns)."""

    __slots__ = ()
    _name = "OrmqrBackward0"
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        a: Any = self.saved("self")
        tau: Any = self.saved("input2")
        c: Any = self.saved("input3")
        left, trans = self.saved("left"), self.saved("transpose")
        dc = _ormqr(a, tau, g, left, not trans) if self.needs(2) else None
        da = dt = None
        if self.needs(0) or self.needs(1):
            if left:
                dq = c @ adjoint(g) if trans else g @ adjoint(c)
            else:
                dq = adjoint(g) @ c if trans else adjoint(c) @ g
            da, dt = householder_grads(a, tau, dq, self.needs(0), self.needs(1))
        return [da, dt, dc]


ormqr = checked(
    ArgParser(
        "ormqr",
        [
            "Tensor input, Tensor input2, Tensor input3, bool left=True, bool transpose=False, "
            "*, Tensor out=None"
        ],
    ),
    _ormqr,
)

OPS = [
    Op("ormqr", ormqr),
]
