"""Binds the op table (engine/ops/table.py) onto `Tensor` (methods, operators, in-place
variants) and `torch.*`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine._arg_parser import ArgParser
from engine._tensor import Tensor
from engine.ops.inplace import make_inplace
from engine.ops.out_params import with_out
from engine.ops.table import Family


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


def bind(table: tuple[Family, ...], namespace: dict[str, Any]) -> None:
    """Attach every row of the op table: Tensor methods, in-place variants and operators,
    `torch.*` functions (with `out=` where the row says) and `torch.<name>_` callers."""
    operators: list[tuple[str, str]] = []
    for op in (op for family in table for op in family.rows):
        if op.method:
            setattr(Tensor, op.name, getattr(op.fn, "method", op.fn))  # _arg_parser.with_parser
        if op.inplace:
            inplace = make_inplace(op.fn, op.name + "_", op.inplace_graph, op.inplace_check)
            setattr(Tensor, op.name + "_", inplace)
        if op.function:
            namespace[op.name] = with_out(op.fn, op.name) if op.out else op.fn
        operators += [(d, op.name) for d in op.operators]
        operators += [(d, op.inplace_name) for d in op.inplace_operators]
    for op in (op for family in table for op in family.rows):
        if op.inplace_function and op.inplace_name not in namespace:
            namespace[op.inplace_name] = _method_caller(
                op.inplace_name, getattr(op.fn, "parser", None)
            )
    for dunder, name in operators:  # the method a later row bound, if one did
        setattr(Tensor, dunder, getattr(Tensor, name))
    for dunder, fn in REFLECTED.items():
        setattr(Tensor, dunder, fn)
    Tensor.__hash__ = lambda self: id(self)  # type: ignore[method-assign]


def _method_caller(name: str, parser: ArgParser | None = None) -> Callable[..., Any]:
    """`torch.<name>(t, ...)`: calls `t.<name>(...)` (PyTorch's `torch.relu_` and friends),
    once the op's parser, if it has one, accepts the call as a function's."""

    def call(input: Any, *args: Any, **kwargs: Any) -> Any:
        if parser is not None:
            parser.parse((input, *args), kwargs, name=name)
        return getattr(input, name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call
