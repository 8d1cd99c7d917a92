"""Binds the op table onto `Tensor` (methods, operators, in-place variants) and `torch.*`."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from engine._tensor import Tensor
from engine.ops.inplace import make_inplace

# Operators spelled as PyTorch's Tensor defines them.
_DUNDERS = {
    "__add__": "add",
    "__radd__": "add",
    "__iadd__": "add_",
    "__sub__": "sub",
    "__rsub__": "rsub",
    "__isub__": "sub_",
    "__mul__": "mul",
    "__rmul__": "mul",
    "__imul__": "mul_",
    "__truediv__": "div",
    "__itruediv__": "div_",
    "__pow__": "pow",
    "__ipow__": "pow_",
    "__matmul__": "matmul",
    "__neg__": "neg",
    "__abs__": "abs",
    "__pos__": "positive",
    "__eq__": "eq",
    "__ne__": "ne",
    "__lt__": "lt",
    "__le__": "le",
    "__gt__": "gt",
    "__ge__": "ge",
    "__and__": "bitwise_and",
    "__or__": "bitwise_or",
    "__xor__": "bitwise_xor",
    "__invert__": "bitwise_not",
    "__lshift__": "bitwise_left_shift",
    "__rshift__": "bitwise_right_shift",
    "__ilshift__": "bitwise_left_shift_",
    "__irshift__": "bitwise_right_shift_",
    "__getitem__": "__getitem__",
    "__setitem__": "__setitem__",
    "__floordiv__": "floor_divide",
    "__mod__": "remainder",
}


def _rtruediv(self: Tensor, other: Any) -> Tensor:
    return self.reciprocal() * other  # type: ignore[no-any-return]


def _rpow(self: Tensor, other: Any) -> Tensor:
    from engine.ops.pointwise import pow as _pow

    return _pow(other, self)


def _rlshift(self: Tensor, other: Any) -> Tensor:
    from engine.ops.pointwise import bitwise_left_shift

    return bitwise_left_shift(other, self)  # type: ignore[no-any-return]


def _rrshift(self: Tensor, other: Any) -> Tensor:
    from engine.ops.pointwise import bitwise_right_shift

    return bitwise_right_shift(other, self)  # type: ignore[no-any-return]


def _rfloordiv(self: Tensor, other: Any) -> Tensor:
    from engine.ops.remainder import floor_divide

    return floor_divide(other, self)


def _rmod(self: Tensor, other: Any) -> Tensor:
    from engine.ops.remainder import remainder

    return remainder(other, self)


def _rmatmul(self: Tensor, other: Any) -> Tensor:
    from engine.ops.matmul import matmul

    return matmul(other, self)


# The reflected operators with no op of their own (`2 / x` is `x.reciprocal() * 2`).
REFLECTED: dict[str, Callable[[Tensor, Any], Tensor]] = {
    "__rtruediv__": _rtruediv,
    "__rpow__": _rpow,
    "__rmatmul__": _rmatmul,
    "__rfloordiv__": _rfloordiv,
    "__rmod__": _rmod,
    "__rlshift__": _rlshift,
    "__rrshift__": _rrshift,
}


def bind(modules: list[ModuleType], namespace: dict[str, Any]) -> None:
    """Attach each module's `TENSOR_METHODS`, `INPLACE` and `TORCH_FUNCTIONS`."""
    for mod in modules:
        for name in getattr(mod, "TENSOR_METHODS", ()):
            fn = getattr(mod, name)
            setattr(Tensor, name, getattr(fn, "method", fn))  # see _arg_parser.with_parser
        for name in getattr(mod, "INPLACE", ()):
            setattr(Tensor, name + "_", make_inplace(getattr(mod, name), name + "_"))
        for name in getattr(mod, "TORCH_FUNCTIONS", ()):
            namespace[name] = getattr(mod, name)
    for dunder, name in _DUNDERS.items():
        fn = getattr(Tensor, name, None)
        if fn is not None:
            setattr(Tensor, dunder, fn)
    for dunder, fn in REFLECTED.items():
        setattr(Tensor, dunder, fn)
    Tensor.__hash__ = lambda self: id(self)  # type: ignore[method-assign]
