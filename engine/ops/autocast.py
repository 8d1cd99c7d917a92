"""CPU autocast: the casts PyTorch's autocast inserts in front of listed ops.

Inside `torch.autocast("cpu")` (bfloat16 by default) the matrix-product family (`mm`, `addmm`,
`bmm`, `matmul`, `linear`, convolutions, `prelu`) first casts its floating inputs to the region's
dtype, and losses, `prod`, `cdist`, `trace` cast reduced-precision inputs up to float32. Each cast
is an ordinary `ToCopyBackward0`; a leaf parameter's cast is cached for the outermost region, so
a weight used twice has one cast node, as in PyTorch. float64 tensors are never cast.

>>> with torch.autocast("cpu"):
...     torch.mm(a, b).dtype
torch.bfloat16
"""

from __future__ import annotations

import threading
from typing import Any

from engine import _dtype
from engine._tensor import Tensor


class _AutocastState(threading.local):
    """The CPU autocast region of this thread (PyTorch keeps autocast state per thread)."""

    def __init__(self) -> None:
        self.enabled = False
        self.dtype = _dtype.bfloat16
        self.depth = 0  # nested regions: the cast cache lives until the outermost one exits
        self.cache_enabled = True
        self.cache: dict[int, tuple[Tensor, Tensor]] = {}


STATE = _AutocastState()
# regions open in any thread: the ops' one cheap check before reading the thread's state
OPEN = [0]


def _cast(t: Tensor, to: _dtype.dtype) -> Tensor:
    from engine.ops.convert import _convert

    return _convert(t, to, False)


def _eligible(x: Any) -> bool:
    return isinstance(x, Tensor) and x.dtype.is_floating_point and x.dtype is not _dtype.float64


def lower(*args: Any) -> tuple[Any, ...]:
    """The args as a lower-precision op sees them: floating tensors in the region's dtype."""
    if not (OPEN[0] and STATE.enabled):
        return args
    to = STATE.dtype
    out = []
    for x in args:
        if not _eligible(x) or x.dtype is to:
            out.append(x)
            continue
        cacheable = (
            STATE.cache_enabled
            and x.dtype is _dtype.float32
            and x.requires_grad
            and x.is_leaf
            and x._base is None
        )
        hit = STATE.cache.get(id(x)) if cacheable else None
        if hit is not None and hit[0] is x:
            out.append(hit[1])
            continue
        y = _cast(x, to)
        if cacheable:
            STATE.cache[id(x)] = (x, y)
        out.append(y)
    return tuple(out)


def fp32(*args: Any) -> tuple[Any, ...]:
    """The args as a float32-listed op (losses, prod, ...) sees them inside a region."""
    if not (OPEN[0] and STATE.enabled):
        return args
    return tuple(
        _cast(x, _dtype.float32) if _eligible(x) and x.dtype is not _dtype.float32 else x
        for x in args
    )


def enter(enabled: bool, dtype: _dtype.dtype, cache_enabled: bool) -> tuple[Any, ...]:
    """Open a region; returns what `leave` restores."""
    prev = (STATE.enabled, STATE.dtype, STATE.cache_enabled)
    STATE.enabled, STATE.dtype, STATE.cache_enabled = enabled, dtype, cache_enabled
    STATE.depth += 1
    OPEN[0] += 1
    return prev


def leave(prev: tuple[Any, ...]) -> None:
    """Close a region opened by `enter`; the outermost one empties the cast cache."""
    STATE.enabled, STATE.dtype, STATE.cache_enabled = prev
    STATE.depth -= 1
    OPEN[0] -= 1
    if STATE.depth == 0:
        STATE.cache.clear()
