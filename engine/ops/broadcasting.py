"""Broadcasting in backward: `unbroadcast`, the one place a gradient is summed back to its
input's shape, the input shapes a broadcasting op's node keeps, and PyTorch's message for
shapes that do not broadcast.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Node
from engine.ops import cascade

_BF16 = _dtype.bfloat16.np
_F32 = np.dtype(np.float32)


def unbroadcast(g: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Sum `g` down to `shape`: the one place broadcasting is undone."""
    gs = g._d.shape
    if gs == shape:
        return g
    lead = len(gs) - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and gs[i + lead] != 1
    )
    if not STATE.enabled:
        d = g._d
        if axes and d.dtype == _BF16:  # summed in float32, rounded once (as PyTorch's sum)
            r = d.astype(_F32).sum(axis=axes).astype(_BF16)
        elif axes:  # in ATen's order where it is known (sum_to is a sum)
            r = cascade.add_reduce(d, axes, False)
            r = d.sum(axis=axes) if r is None else r
        else:
            r = d
        return make(np.reshape(r, shape), False, None, 0)
    from engine.ops.reduce import sum as _sum
    from engine.ops.shape import reshape

    # PyTorch's sum_to: sum() to a scalar, else sum(dims, keepdim=True), then a view only
    # when leading dims were summed away (so create_graph records the same nodes)
    if not shape:
        return _sum(g)
    r2 = _sum(g, axes, True) if axes else g
    return reshape(r2, shape) if lead else r2


def in_shape(node: Node, i: int, g: Tensor) -> tuple[int, ...]:
    """Shape of input `i` of a broadcasting op (the gradient's shape when none was stored)."""
    shapes = node._shapes
    return g._d.shape if shapes is None else shapes[i]


def bshapes(a: Tensor, b: Any, out: np.ndarray[Any, Any]) -> tuple[tuple[int, ...], ...] | None:
    """Input shapes to store on a broadcasting op's node, or None when nothing broadcast."""
    bs = b._d.shape if isinstance(b, Tensor) else ()
    if a._d.shape == out.shape and bs == out.shape:
        return None
    return (a._d.shape, bs)


def broadcast_error(a: Any, b: Any, error: Exception | None = None) -> Exception:
    """PyTorch's message for shapes that do not broadcast (first clash from the right)."""
    sa, sb = np.shape(a), np.shape(b)
    nd = max(len(sa), len(sb))
    for i in range(nd - 1, -1, -1):
        x = sa[i - nd + len(sa)] if i - nd + len(sa) >= 0 else 1
        y = sb[i - nd + len(sb)] if i - nd + len(sb) >= 0 else 1
        if x != y and x != 1 and y != 1:
            return RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {i}"
            )
    # the shapes were fine: NumPy refused for another reason
    return error if error is not None else ValueError(f"{list(sa)} and {list(sb)}")


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The common shape, with PyTorch's message for the first pair (left to right, the shape
    so far as tensor a) that does not broadcast."""
    out: tuple[int, ...] = ()
    for sh in shapes:
        try:
            out = np.broadcast_shapes(out, sh)
        except ValueError:
            raise broadcast_error(np.empty(out, np.bool_), np.empty(sh, np.bool_)) from None
    return out
