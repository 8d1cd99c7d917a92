"""Two-input special functions: xlog1py, Hurwitz zeta, the regularised incomplete gammas, and
the float-bit helpers ldexp, frexp, nextafter, with gcd/lcm for integers.

A Python number in either argument position gives PyTorch's `...Backward1` (number first) or
`...Backward2` (number second) node, as `special_xlog1py(2, x)` does.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, bshapes, float_array, in_shape, record, unbroadcast
from engine.ops.inplace import make_inplace, type_name
from engine.ops.pointwise_binary import _floats
from engine.ops.special_ops import _sc, lgamma
from engine.ops.table import Op

Array = np.ndarray[Any, Any]


def _binary(nodes: tuple[type[OpNode], ...], fn: Any, self: Any, other: Any) -> Tensor:
    """fn(self, other) in float64, rounded; the node depends on which argument is a number."""
    if not isinstance(self, Tensor):
        b = float_array(other)
        with np.errstate(all="ignore"):
            out = np.asarray(fn(np.float64(self), b.astype(np.float64))).astype(b.dtype)
        return record(nodes[1], out, (other,), {"self": self, "other": other})
    a, b, bt, rt = _floats(self, other)
    with np.errstate(all="ignore"):
        out = np.asarray(fn(a.astype(np.float64), b.astype(np.float64))).astype(rt)
    if bt is None:  # zeta saves nothing here: its only derivative needs the number
        saved = {} if nodes is ZETA else {"self": self, "other": other}
        return record(nodes[2], out, (self,), saved)
    return record(
        nodes[0], out, (self, bt), {"self": self, "other": bt}, None, bshapes(self, bt, out)
    )


class _Two(OpNode):
    """Partial derivatives d0 (in self) and d1 (in other); either may be a number."""

    __slots__ = ()
    _which = (0, 1)  # which of (self, other) are the node's tensor inputs

    def d0(self, s: Any, o: Any, g: Tensor) -> Tensor:
        raise NotImplementedError

    def d1(self, s: Any, o: Any, g: Tensor) -> Tensor:
        raise NotImplementedError

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        if self._name == "SpecialZetaBackward2":  # saves nothing: its one derivative is missing
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        s, o = self.saved("self"), self.saved("other")
        out: Grads = []
        for edge, which in enumerate(self._which):
            if not self.needs(edge):
                out.append(None)
                continue
            d = self.d0(s, o, g) if which == 0 else self.d1(s, o, g)
            out.append(unbroadcast(d, in_shape(self, edge, g)))
        return out


# (tensor inputs, operands taken as a Scalar) of overloads 0 (two tensors), 1 (a number
# first) and 2 (a number second)
_OVERLOADS = (
    ((0, 1), frozenset[str]()),
    ((1,), frozenset(("self",))),
    ((0,), frozenset(("other",))),
)


def _variants(
    base: str, d0: Any, d1: Any, count: int = 3, first: int = 0
) -> tuple[type[OpNode], ...]:
    """The node classes `<base>Backward{first..count-1}` sharing the two partial derivatives
    (0: two tensors, 1: a number first, 2: a number second)."""
    body = {"__slots__": (), "d0": d0, "d1": d1}
    return tuple(
        type(
            f"{base}Backward{i}",
            (_Two,),
            {**body, "_name": f"{base}Backward{i}", "_which": w, "_scalars": scalars},
        )
        for i, (w, scalars) in enumerate(_OVERLOADS[:count])
        if i >= first
    )


# -- xlog1py ---------------------------------------------------------------------------------
def _xlog1py(x: Array, y: Array) -> Array:
    return np.where((x == 0) & ~np.isnan(y), 0.0, x * np.log1p(y))


def _xlog1py_d0(node: OpNode, s: Any, o: Any, g: Tensor) -> Tensor:
    out = special_xlog1py(g, o)
    if isinstance(s, Tensor) and isinstance(o, Tensor):
        sa: Any = s
        return out.masked_fill((sa == 0.0) & (o <= -1.0), 0.0)
    return out


def _xlog1py_d1(node: OpNode, s: Any, o: Any, g: Tensor) -> Tensor:
    return g * s / (o + 1)  # type: ignore[no-any-return]


XLOG1PY = _variants("SpecialXlog1Py", _xlog1py_d0, _xlog1py_d1)


def special_xlog1py(self: Any, other: Any) -> Tensor:
    """x * log1p(y), 0 where x == 0 (unless y is NaN)."""
    return _binary(XLOG1PY, _xlog1py, self, other)


# -- xlogy with a number (torch.xlogy has the tensor-tensor node, XlogyBackward0) -----------
def _xlogy_d0(node: OpNode, s: Any, o: Any, g: Tensor) -> Tensor:
    # with a number `other`, PyTorch's gradient is g * log(other), even where self is 0
    with np.errstate(divide="ignore", invalid="ignore"):
        return g * float(np.log(o))


def _xlogy_d1(node: OpNode, s: Any, o: Any, g: Tensor) -> Tensor:
    return g * s / o  # type: ignore[no-any-return]


XLOGY_NUMBER = _variants("Xlogy", _xlogy_d0, _xlogy_d1, first=1)


def special_xlogy(self: Any, other: Any) -> Tensor:
    """x * log(y), 0 where x == 0 (unless y is NaN); either argument may be a number."""
    from engine.ops.pointwise_binary import XlogyBackward0, xlogy

    if isinstance(self, Tensor) and isinstance(other, Tensor):
        return xlogy(self, other)

    def fn(x: Array, y: Array) -> Array:
        return np.where((x == 0) & ~np.isnan(y), 0.0, x * np.log(y))

    return _binary((XlogyBackward0, *XLOGY_NUMBER), fn, self, other)


# -- zeta and the incomplete gammas -------------------------------------------------------
def not_implemented_node(what: str) -> Any:
    def d(node: OpNode, s: Any, o: Any, g: Tensor) -> Tensor:
        raise NotImplementedError(f"the derivative for '{what}' is not implemented.")

    return d


def _zeta_d1(node: OpNode, s: Any, o: Any, g: Tensor) -> Tensor:
    return g * -s * special_zeta(s + 1.0, o)  # type: ignore[no-any-return]


ZETA = _variants("SpecialZeta", not_implemented_node("zeta"), _zeta_d1)


def special_zeta(self: Any, other: Any) -> Tensor:
    """The Hurwitz zeta function sum_k (k + q)^-x."""
    return _binary(ZETA, lambda x, q: _sc().zeta(x, q), self, other)


def _igamma_d1(node: OpNode, s: Any, o: Any, g: Tensor) -> Tensor:
    sign = -1.0 if node._name.startswith("Igammac") else 1.0
    return sign * g * ((s - 1) * o.log() - o - lgamma(s)).exp()  # type: ignore[no-any-return]


# igamma takes tensors only: just the Backward0 node exists
IGAMMA = _variants("Igamma", not_implemented_node("igamma: input"), _igamma_d1, 1)
IGAMMAC = _variants("Igammac", not_implemented_node("igammac: input"), _igamma_d1, 1)


def _tensor_other(name: str, other: Any) -> None:
    if not isinstance(other, Tensor):
        raise TypeError(
            f"{name}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}"
        )


def igamma(self: Tensor, other: Any) -> Tensor:
    """The regularised lower incomplete gamma P(a, x)."""
    _tensor_other("igamma", other)
    return _binary(IGAMMA, lambda a, x: _sc().gammainc(a, x), self, other)


def igammac(self: Tensor, other: Any) -> Tensor:
    """The regularised upper incomplete gamma Q(a, x)."""
    _tensor_other("igammac", other)
    return _binary(IGAMMAC, lambda a, x: _sc().gammaincc(a, x), self, other)


# -- float bits ------------------------------------------------------------------------------
def ldexp(self: Tensor, other: Any, *, out: Tensor | None = None) -> Tensor:
    """self * 2**other.

    ATen computes a float `self` with an integer `other` by std::ldexp into `empty_like(self)`
    (so a broadcast that grows `self` warns that the output was resized), everything else as
    `mul(self, 2.0 ** other)`.
    """
    if not isinstance(other, Tensor):
        raise TypeError(
            f"ldexp(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}"
        )
    int_exponent = _dtype.kind(other._d.dtype) in "iub" and _dtype.kind(self._d.dtype) == "f"
    if out is not None:
        return _ldexp_out(self, other, out, int_exponent)
    return _ldexp(self, other, int_exponent, warn=True)


def _ldexp(self: Tensor, other: Tensor, int_exponent: bool, warn: bool) -> Tensor:
    if int_exponent:
        shape = _ldexp_shape(self, other)
        if warn and self._d.size and self._d.shape != shape:
            _warn_resized(self._d.shape, shape)
        _no_bool_exponent(other)
    a, b, bt, rt = _floats(self, other)
    res = np.asarray(a * np.exp2(b)).astype(rt)
    bt = bt if bt is not None else make(np.asarray(other), False, None, 0)
    return record(LdexpBackward0, res, (self, bt), {"other": bt}, "result", bshapes(self, bt, res))


def _ldexp_in_place(self: Tensor, other: Tensor) -> Tensor:
    if _dtype.kind(self._d.dtype) in "iub":
        name = type_name(self.dtype)
        raise RuntimeError(f"ldexp can't be cast to the desired output type {name}")
    if not isinstance(other, Tensor):
        raise TypeError(
            f"ldexp_(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}"
        )
    # ATen's ldexp_ is ldexp_out(self, self, other): no empty_like(self) to resize
    return _ldexp(self, other, _dtype.kind(other._d.dtype) in "iub", warn=False)


ldexp_ = make_inplace(_ldexp_in_place, "ldexp_")


def _ldexp_shape(self: Tensor, other: Tensor) -> tuple[int, ...]:
    try:
        return np.broadcast_shapes(self._d.shape, other._d.shape)
    except ValueError as e:
        from engine.ops._core import broadcast_error

        raise broadcast_error(self._d, other._d, e) from None


def _no_bool_exponent(other: Tensor) -> None:
    if other._d.dtype == np.bool_:
        raise NotImplementedError("\"ldexp_cpu_exp\" not implemented for 'Bool'")


def _warn_resized(had: tuple[int, ...], want: tuple[int, ...]) -> None:
    from engine._warn import warn
    from engine.ops.out_params import _RESIZED

    warn(_RESIZED.format(list(had), list(want)))


def _ldexp_out(self: Tensor, other: Tensor, out: Tensor, int_exponent: bool) -> Tensor:
    """`torch.ldexp(..., out=out)`: ATen's ldexp_out (the ldexp kernel or mul_out)."""
    from engine._tensor import write
    from engine.autograd.grad_mode import STATE

    if STATE.enabled and (self._rg or other._rg):
        raise RuntimeError(
            "ldexp(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    if _dtype.kind(out._d.dtype) in "iub":
        raise RuntimeError(f"ldexp can't be cast to the desired output type {type_name(out.dtype)}")
    with _no_grad():
        r = ldexp(self, other)
    shape = r._d.shape
    resized = out._d.shape != shape
    if resized and out._d.size:
        _warn_resized(out._d.shape, shape)
    if int_exponent and out._d.dtype != self._d.dtype:
        raise RuntimeError(
            "!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
            '"/__w/pytorch/pytorch/aten/src/ATen/native/cpu/Loops.h":311, please report a bug to '
            "PyTorch. "
        )
    if resized and out._d.size and out._d.dtype != r._d.dtype:
        # mul_out into an output of another dtype computes into a temporary and resizes twice
        _warn_resized(out._d.shape, shape)
    if resized:
        out._d = np.empty(shape, out._d.dtype)
    write(out, r._d)
    return out


def _no_grad() -> Any:
    from engine.autograd.grad_mode import no_grad

    return no_grad()


class LdexpBackward0(OpNode):
    __slots__ = ()
    _name = "LdexpBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        from engine.ops.pointwise import pow as _pow

        o, r = self.saved("other"), self.saved("result")
        g0 = g1 = None
        if self.needs(0):
            if (
                _dtype.kind(o._d.dtype) in "iub"
            ):  # PyTorch's pow(2, int) is integer: 0 for a negative one
                scale = np.where(o._d < 0, 0.0, np.exp2(np.maximum(o._d, 0)))
                factor = make(scale.astype(g._d.dtype), False, None, 0)
            else:
                factor = _pow(2.0, o)
            g0 = unbroadcast(g * factor, in_shape(self, 0, g))
        if self.needs(1):
            g1 = unbroadcast(g * r * math.log(2.0), in_shape(self, 1, g))
        return [g0, g1]


def nextafter(self: Tensor, other: Any) -> Tensor:
    """The next float after self towards other."""
    a, b, bt, rt = _floats(self, other)
    out = np.nextafter(a, b).astype(rt)
    saved = {"self": self, "other": bt}
    return record(NextafterBackward0, out, (self, bt), saved, None, bshapes(self, bt, out))


class NextafterBackward0(OpNode):
    """Its gradient is g for self and zero for other (a step of one ulp is "the identity")."""

    __slots__ = ()
    _name = "NextafterBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        g0 = unbroadcast(g, in_shape(self, 0, g)) if self.needs(0) else None
        g1 = None
        if self.needs(1):
            g1 = make(np.zeros(in_shape(self, 1, g), g._d.dtype), False, None, 0)
        return [g0, g1]


def frexp(self: Tensor) -> Any:
    """(mantissa, exponent) with self = mantissa * 2**exponent and 0.5 <= |mantissa| < 1."""
    from engine.return_types import frexp as _frexp

    d = self._d
    if _dtype.kind(d.dtype) != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    m, e = np.frexp(d)
    e = e.astype(np.int32)
    exponent = make(e, False, None, 0)
    mant = record(FrexpBackward0, m.astype(d.dtype), (self,), {"exponent": exponent})
    return _frexp((mant, exponent))


class FrexpBackward0(OpNode):
    __slots__ = ()
    _name = "FrexpBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        e = self.saved("exponent")
        return [g / make(np.exp2(e._d).astype(g._d.dtype), False, None, 0)]


def _integer_op(name: str, fn: Any, self: Tensor, other: Any) -> Tensor:
    from engine.ops._core import binary_arrays
    from engine.ops.inplace import type_name

    a, b, _, rt = binary_arrays(self, other)
    if _dtype.kind(rt) not in "iu":
        from engine._dtype import from_numpy

        raise NotImplementedError(
            f"\"{name}_cpu\" not implemented for '{type_name(from_numpy(rt))}'"
        )
    return make(np.asarray(fn(a, b)).astype(rt), False, None, 0)


def gcd(self: Tensor, other: Any) -> Tensor:
    """The greatest common divisor (integers only)."""
    return _integer_op("gcd", np.gcd, self, other)


def lcm(self: Tensor, other: Any) -> Tensor:
    """The least common multiple (integers only)."""
    return _integer_op("lcm", np.lcm, self, other)


OPS = [
    Op("igamma", igamma, inplace=True, out=True),
    Op("igammac", igammac, inplace=True, out=True),
    Op("ldexp", ldexp),
    Op("ldexp_", ldexp_, function=False),
    Op("nextafter", nextafter, inplace=True, out=True),
    Op("frexp", frexp, out=True),
    Op("gcd", gcd, inplace=True, out=True),
    Op("lcm", lcm, inplace=True, out=True),
]
