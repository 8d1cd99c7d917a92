"""`torch.cpu.amp`: the deprecated spelling of `torch.amp`'s CPU autocast."""

from __future__ import annotations

from typing import Any

from engine import amp
from engine._warn import warn


def autocast(enabled: bool = True, dtype: Any = None, cache_enabled: bool = True) -> amp.autocast:
    warn(
        "`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
        "`torch.amp.autocast('cpu', args...)` instead.",
        FutureWarning,
    )
    return amp.autocast("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)
