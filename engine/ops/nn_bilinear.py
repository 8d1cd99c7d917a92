"""The bilinear form as ATen records it: one `TrilinearBackward0` node."""

from __future__ import annotations

import numpy as np

from engine._tensor import Tensor
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import const


def trilinear(x1: Tensor, w: Tensor, x2: Tensor) -> Tensor:
    """out[..., o] = sum_ij x1[..., i] w[o, i, j] x2[..., j]."""
    if x1.shape[:-1] != x2.shape[:-1]:
        raise RuntimeError(
            f"bilinear(): input batch dimensions do not match: got {x1.shape[0]} and {x2.shape[0]}"
        )
    if x1.shape[-1] != w.shape[1]:
        raise RuntimeError(
            f"bilinear(): input1 size does not match weight size: got {x1.shape[-1]} but "
            f"expected {w.shape[1]}"
        )
    if x2.shape[-1] != w.shape[2]:
        raise RuntimeError(
            f"bilinear(): input2 size does not match weight size: got {x2.shape[-1]} but "
            f"expected {w.shape[2]}"
        )
    out = np.einsum("...i,oij,...j->...o", x1._d, w._d, x2._d, optimize=True)
    return record(
        TrilinearBackward0, out.astype(w._d.dtype), (x1, w, x2), {"i1": x1, "i2": w, "i3": x2}
    )


class TrilinearBackward0(OpNode):
    __slots__ = ()
    _name = "TrilinearBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        ts = [self.saved(k) for k in ("i1", "i2", "i3")]
        if STATE.enabled and (g._rg or any(t._rg for t in ts)):
            from engine.ops.composed_grad import regrad
            from engine.ops.einsum import einsum

            return regrad(self, g, list(ts), lambda *xs: einsum("...i,oij,...j->...o", *xs))
        a, w, b = (t._d for t in ts)
        gd = g._d
        ga = np.einsum("...o,oij,...j->...i", gd, w, b, optimize=True) if self.needs(0) else None
        gw = np.einsum("...o,...i,...j->oij", gd, a, b, optimize=True) if self.needs(1) else None
        gb = np.einsum("...o,oij,...i->...j", gd, w, a, optimize=True) if self.needs(2) else None
        return [None if x is None else const(x.astype(gd.dtype)) for x in (ga, gw, gb)]
