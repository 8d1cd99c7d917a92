"""Pointwise comparisons and float queries (never differentiable): eq, ne, lt, le, gt, ge,
equal, isclose, allclose, isnan, isinf, isfinite, isposinf, isneginf.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, binary_arrays, broadcast_error, record, variant
from engine.ops.table import Op


def _compare(fn: Any) -> Callable[[Tensor, Any], Tensor]:
    def op(self: Tensor, other: Any) -> Tensor:
        a, b, _, _ = binary_arrays(self, other)
        if fn in _ORDERED:
            _dtype.refuse_barely(a.dtype, f"{_ORDERED[fn]}_cpu")
        if _dtype.kind(a.dtype) == "c" and fn in _ORDERED:
            raise NotImplementedError(
                f"\"{_ORDERED[fn]}_cpu\" not implemented for '{_CTYPE[a.dtype.name]}'"
            )
        try:
            return make(np.asarray(fn(a, b)), False, None, 0)
        except ValueError as e:
            raise broadcast_error(a, b, e) from None

    return op


class _ComparedInPlace(OpNode):
    """An in-place comparison of a tensor in the graph (`x.gt_(0)`): its values are now 0 and 1,
    so every input's gradient is zeros. PyTorch's GtBackward0 for a number, GtBackward1 for a
    tensor (likewise Eq, Ne, Lt, Le, Ge)."""

    __slots__ = ()

    def apply(self, grads: Grads) -> Grads:
        assert self._shapes is not None
        dtypes = self.__dict__["dtypes"]
        return [
            make(np.zeros(shape, dt), False, None, 0) if self.needs(i) else None
            for i, (shape, dt) in enumerate(zip(self._shapes, dtypes, strict=True))
        ]


_NODES = {
    name: variant(_ComparedInPlace, name)
    for name in (
        f"{base}Backward{k}" for base in ("Eq", "Ne", "Lt", "Le", "Gt", "Ge") for k in (0, 1)
    )
}


def inplace_graph(base: str) -> Callable[[Tensor, Any, Tensor], Tensor]:
    def graph(self: Tensor, other: Any, out: Tensor) -> Tensor:
        """`out` (the comparison of `self`, a copy of the tensor written to) recorded with the
        node PyTorch gives the in-place form, in `self`'s dtype."""
        data = out._d.astype(self._d.dtype)
        inputs: tuple[Tensor, ...] = (self, other) if isinstance(other, Tensor) else (self,)
        node = _NODES[f"{base}Backward{len(inputs) - 1}"]
        keep = {"dtypes": tuple(t._d.dtype for t in inputs)}
        return record(node, data, inputs, keep=keep, shapes=tuple(t._d.shape for t in inputs))

    return graph


_ORDERED = {np.less: "lt", np.less_equal: "le", np.greater: "gt", np.greater_equal: "ge"}
_CTYPE = {"complex64": "ComplexFloat", "complex128": "ComplexDouble"}
eq = _compare(np.equal)
ne = _compare(np.not_equal)
lt = _compare(np.less)
le = _compare(np.less_equal)
gt = _compare(np.greater)
ge = _compare(np.greater_equal)


def equal(self: Tensor, other: Tensor) -> bool:
    """True when both have the same shape and elements (a Python bool, no graph)."""
    a, b = self._d, other._d
    return a.shape == b.shape and bool(np.array_equal(a, b))


def _close_check(self: Tensor, other: Tensor, rtol: float, atol: float) -> None:
    """PyTorch's checks before comparing: one dtype (no promotion), tolerances >= 0."""
    if self._d.dtype != other._d.dtype:
        name = _dtype.scalar_type_name
        raise RuntimeError(f"{name(self._d.dtype.name)} did not match {name(other._d.dtype.name)}")
    for what, tol in (("rtol", rtol), ("atol", atol)):
        if tol < 0:
            raise RuntimeError(f"{what} must be greater than or equal to zero, but got {tol}")


def isclose(
    self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Tensor:
    """|self - other| <= atol + rtol * |other|, elementwise (a bool tensor, no graph)."""
    _close_check(self, other, rtol, atol)
    return make(np.isclose(self._d, other._d, rtol, atol, equal_nan), False, None, 0)


def allclose(
    self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    """True when `isclose` holds everywhere (a Python bool)."""
    _close_check(self, other, rtol, atol)
    return bool(np.allclose(self._d, other._d, rtol, atol, equal_nan))


def isnan(self: Tensor) -> Tensor:
    return make(np.isnan(self._d), False, None, 0)


def isinf(self: Tensor) -> Tensor:
    return make(np.isinf(self._d), False, None, 0)


def isfinite(self: Tensor) -> Tensor:
    return make(np.isfinite(self._d), False, None, 0)


def isposinf(self: Tensor) -> Tensor:
    if _dtype.kind(self._d.dtype) == "c":
        raise RuntimeError("isposinf does not support complex inputs.")
    return make(np.isposinf(self._d), False, None, 0)


def isneginf(self: Tensor) -> Tensor:
    if _dtype.kind(self._d.dtype) == "c":
        raise RuntimeError("isneginf does not support complex inputs.")
    return make(np.isneginf(self._d), False, None, 0)


OPS = [
    *(
        Op(
            name,
            fn,
            operators=(f"__{name}__",),
            out=True,
            inplace=True,
            inplace_graph=inplace_graph(name.capitalize()),
        )
        for name, fn in (("eq", eq), ("ne", ne), ("lt", lt), ("le", le), ("gt", gt), ("ge", ge))
    ),
    Op("isnan", isnan),
    Op("isinf", isinf),
    Op("isfinite", isfinite),
    Op("isposinf", isposinf, out=True),
    Op("isneginf", isneginf, out=True),
    Op("equal", equal),
    Op("isclose", isclose),
    Op("allclose", allclose),
]
