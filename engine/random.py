"""`torch.random`: the default generator's seed and state, and `fork_rng`.

>>> with torch.random.fork_rng():
...     _ = torch.rand(1)  # the stream outside is unchanged afterwards
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from engine._generator import default_generator
from engine._random import get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state"]


@contextlib.contextmanager
def fork_rng(devices: Any = None, enabled: bool = True, **kwargs: Any) -> Iterator[None]:
    """Restore the default generator's state on exit."""
    if not enabled:
        yield
        return
    state = default_generator.get_state()
    try:
        yield
    finally:
        default_generator.set_state(state)
