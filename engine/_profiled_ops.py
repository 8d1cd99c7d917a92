"""The ops `torch.autograd.profiler.profile` times, named as PyTorch's profiler names them.

They are the engine's whole public namespace (`torch.*`, `Tensor.*`, `torch.nn.functional.*`),
so this list lives above it and fills the profiler's slot (engine/_upper.py) at import.
"""

from __future__ import annotations

import inspect
from typing import Any

import engine
from engine._tensor import Tensor
from engine._upper import UPPER, Label
from engine.nn import functional
from engine.ops.table import rows

# creation functions PyTorch reports as aten ops
_CREATION = (
    "zeros",
    "ones",
    "empty",
    "full",
    "rand",
    "randn",
    "randint",
    "arange",
    "eye",
    "linspace",
    "zeros_like",
    "ones_like",
    "empty_like",
    "full_like",
    "rand_like",
    "randn_like",
)
# torch.nn.functional names whose ATen op is named differently, and those that are Python
# compositions in PyTorch (their inner ops are what PyTorch records)
_F_ATEN = {"cross_entropy": "cross_entropy_loss", "nll_loss": "nll_loss_nd"}
_F_PYTHON = frozenset({"normalize", "interpolate", "upsample", "softmin", "gumbel_softmax"})
# Tensor methods that live outside the op modules but are ATen ops in PyTorch
_CORE_METHODS = ("detach", "detach_", "to", "item", "zero_", "fill_", "copy_", "clone")


def _index_name(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """`x[i]` is ATen's select, `x[a:b]` slice, `x[tensor]` index."""
    key = args[1] if len(args) > 1 else None
    first = key[0] if isinstance(key, tuple) and key else key
    if isinstance(first, int):
        return "aten::select"
    if isinstance(first, slice) or first is None or first is Ellipsis:
        return "aten::slice"
    return "aten::index"


def _setitem_name(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    return "aten::copy_" if len(args) > 2 and hasattr(args[2], "_d") else "aten::fill_"


def _op_targets() -> list[tuple[Any, str, Label]]:
    """(owner, attribute, event name) for every op the profiler times."""
    targets: list[tuple[Any, str, Label]] = [
        (Tensor, "__getitem__", _index_name),
        (Tensor, "__setitem__", _setitem_name),
    ]
    # `__rtruediv__` is `reciprocal() * other` in PyTorch too, so it is not an op of its own
    operators: list[tuple[Any, str, Label]] = []
    for _, op in rows(engine._OP_TABLE):
        if op.method:
            targets.append((Tensor, op.name, f"aten::{op.name}"))
        if op.inplace:
            targets.append((Tensor, op.name + "_", f"aten::{op.name}_"))
        if op.function:
            targets.append((engine, op.name, f"aten::{op.name}"))
        operators += [(Tensor, d, f"aten::{op.name}") for d in op.operators]
        operators += [(Tensor, d, f"aten::{op.inplace_name}") for d in op.inplace_operators]
    targets += operators
    targets += [(engine, n, f"aten::{n}") for n in _CREATION]
    targets += [(Tensor, n, f"aten::{n}") for n in _CORE_METHODS]
    names = getattr(functional, "__all__", None) or [
        n for n in vars(functional) if not n.startswith("_")
    ]
    targets += [
        (functional, n, _functional_label(getattr(functional, n), _F_ATEN.get(n, n)))
        for n in names
        if n not in _F_PYTHON
    ]
    return targets


def _functional_label(fn: Any, aten: str) -> Label:
    """`F.relu(x, inplace=True)` is ATen's `relu_`, as `nn.ReLU(inplace=True)` shows."""
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return f"aten::{aten}"
    if "inplace" not in params:
        return f"aten::{aten}"
    at = params.index("inplace")

    def label(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
        inplace = kwargs.get("inplace", args[at] if len(args) > at else False)
        return f"aten::{aten}_" if inplace else f"aten::{aten}"

    return label


UPPER.profiled_ops = _op_targets
