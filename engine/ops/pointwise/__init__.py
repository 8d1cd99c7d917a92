"""Pointwise ops: arithmetic, powers, elementary functions, activations, selection,
comparisons and bitwise logic, one module per family.

Each op's forward (on ndarrays) sits above its node, whose `apply` is the derivative written
with engine ops. Non-differentiable points follow PyTorch: relu'(0)=0, abs'(0)=0,
sqrt'(0)=inf, clamp passes the gradient at its bounds, maximum/minimum split ties in half.
The op table sees one family, `engine.ops.pointwise`, whose rows are its modules' rows.
"""

from __future__ import annotations

import numpy as np

from engine.ops.pointwise import (
    activation,
    arithmetic,
    comparison,
    elementary,
    logic,
    power,
    selection,
)
from engine.ops.pointwise.activation import relu, sigmoid
from engine.ops.pointwise.arithmetic import add, div, mul, rsub, sub
from engine.ops.pointwise.comparison import (
    allclose,
    eq,
    equal,
    ge,
    gt,
    isclose,
    isfinite,
    isinf,
    isnan,
    isneginf,
    isposinf,
    le,
    lt,
    ne,
)
from engine.ops.pointwise.elementary import (
    abs,
    cos,
    exp,
    log,
    neg,
    reciprocal,
    rsqrt,
    sign,
    sin,
    sqrt,
    tanh,
)
from engine.ops.pointwise.logic import (
    bitwise_and,
    bitwise_left_shift,
    bitwise_not,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    logical_and,
    logical_not,
    logical_or,
)
from engine.ops.pointwise.power import pow
from engine.ops.pointwise.selection import clamp, clip, maximum, minimum, where

# PyTorch computes 1/0, log(0), sqrt(-1) silently (inf, -inf, nan); so does the engine.
# A per-call np.errstate costs about a microsecond, more than a tiny op itself.
np.seterr(all="ignore")

OPS = [
    *elementary.OPS,
    *activation.OPS,
    *arithmetic.OPS,
    *power.OPS,
    *selection.OPS,
    *comparison.OPS,
    *logic.OPS,
]

__all__ = [
    "OPS",
    "abs",
    "add",
    "allclose",
    "bitwise_and",
    "bitwise_left_shift",
    "bitwise_not",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "clamp",
    "clip",
    "cos",
    "div",
    "eq",
    "equal",
    "exp",
    "ge",
    "gt",
    "isclose",
    "isfinite",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "le",
    "log",
    "logical_and",
    "logical_not",
    "logical_or",
    "lt",
    "maximum",
    "minimum",
    "mul",
    "ne",
    "neg",
    "pow",
    "reciprocal",
    "relu",
    "rsqrt",
    "rsub",
    "sigmoid",
    "sign",
    "sin",
    "sqrt",
    "sub",
    "tanh",
    "where",
]
