"""`abs`, `angle`, `sgn` of complex input and `polar`: real-valued or non-holomorphic maps of
complex numbers, each with PyTorch's own gradient formula."""

from __future__ import annotations

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, broadcast_error, in_shape, record, unbroadcast
from engine.ops.complex import _is_c, _pair_check, real
from engine.ops.complex_grad import conj_grad
from engine.ops.table import Op


def polar(abs: Tensor, angle: Tensor) -> Tensor:
    """`abs * exp(1j * angle)`."""
    _pair_check(abs, angle)
    try:
        out = np.multiply(abs._d, np.exp(1j * angle._d.astype(np.float64)))
    except ValueError as e:
        raise broadcast_error(abs._d, angle._d, e) from None
    out = out.astype(_dtype.from_numpy(abs._d.dtype).to_complex().np)
    shapes = (abs._d.shape, angle._d.shape)
    return record(PolarBackward0, out, (abs, angle), None, "result", shapes)


class PolarBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "PolarBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        r = self.saved("result")
        gc = conj_grad(g)
        ga = unbroadcast(real(gc * sgn(r)), in_shape(self, 0, g)) if self.needs(0) else None
        gt = unbroadcast(real(gc * (r * 1j)), in_shape(self, 1, g)) if self.needs(1) else None
        return [ga, gt]


def abs_complex(self: Tensor) -> Tensor:
    """|z| (a real tensor) with the gradient `g * sgn(z)`."""
    return record(AbsBackward0, np.abs(self._d), (self,), {"self": self})


class AbsBackward0(OpNode):
    __slots__ = ()
    _name = "AbsBackward0"
    _listed = False  # op_nodes() lists the real op's class
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * sgn(self.saved("self"))]


def sgn_complex(self: Tensor) -> Tensor:
    """z / |z|, and 0 at 0."""
    d = self._d
    with np.errstate(all="ignore"):
        out = np.where(d == 0, 0, d / np.abs(d)).astype(d.dtype)
    return record(SgnBackward0, out, (self,), {"self": self}, "result")


def sgn(self: Tensor) -> Tensor:
    """`torch.sgn`: sign for real tensors, z / |z| for complex ones."""
    if _is_c(self):
        return sgn_complex(self)
    from engine.ops.pointwise_unary import sgn as real_sgn

    return real_sgn(self)


class SgnBackward0(OpNode):
    __slots__ = ()
    _name = "SgnBackward0"
    _listed = False  # op_nodes() lists the real op's class
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)

    def apply(self, grads: Grads) -> Grads:
        # (g - s^2 conj(g)) / (2|z|): the Wirtinger form of d(z/|z|); 0 where z == 0
        g = grads[0]
        assert g is not None
        z, s = self.saved("self"), self.saved("result")
        a = abs_complex(z)
        r = (g - s * s * conj_grad(g)) / (a * 2)
        zero = make(np.zeros((), r._d.dtype), False, None, 0)
        from engine.ops.pointwise import eq, where

        return [where(eq(a, 0), zero, r)]


def angle(self: Tensor) -> Tensor:
    """The argument of each element (0 or pi for real tensors)."""
    d = self._d
    if _is_c(self):
        out = np.angle(d).astype(d.real.dtype)
    else:
        if _dtype.kind(d.dtype) != "f":
            d = d.astype(_dtype.get_default_dtype().np)
        out = np.where(np.isnan(d), d, np.where(d < 0, np.pi, 0.0)).astype(d.dtype)
    return record(AngleBackward0, out, (self,), {"self": self})


class AngleBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "AngleBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        z = self.saved("self")
        if not _is_c(z):
            return [g * 0]
        from engine.ops.pointwise import eq, where

        a = abs_complex(z)
        r = g * z / (a * a) * 1j
        zero = make(np.zeros((), r._d.dtype), False, None, 0)
        return [where(eq(z, 0), zero, r)]


OPS = [
    Op("angle", angle, out=True),
    Op("sgn", sgn, out=True),
    Op("polar", polar, method=False, out=True),
]
