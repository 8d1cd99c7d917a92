"""`torch.cuda.amp`: the deprecated spellings of `torch.amp`'s CUDA autocast and GradScaler."""

from __future__ import annotations

from typing import Any

from engine import amp
from engine._warn import warn


def autocast(enabled: bool = True, dtype: Any = None, cache_enabled: bool = True) -> amp.autocast:
    warn(
        "`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
        "`torch.amp.autocast('cuda', args...)` instead.",
        FutureWarning,
    )
    return amp.autocast("cuda", dtype=dtype, enabled=enabled)


def GradScaler(  # a class in PyTorch; a factory here
    init_scale: float = 2.0**16,
    growth_factor: float = 2.0,
    backoff_factor: float = 0.5,
    growth_interval: int = 2000,
    enabled: bool = True,
) -> amp.GradScaler:
    warn(
        "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
        "`torch.amp.GradScaler('cuda', args...)` instead.",
        FutureWarning,
    )
    return amp.GradScaler(
        "cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled
    )
