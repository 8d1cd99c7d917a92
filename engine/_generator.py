"""`torch.Generator`: a seedable random stream of its own (the engine's, not PyTorch's).

>>> g = torch.Generator().manual_seed(42); g.initial_seed()
42
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._device import device as _device


class Generator:
    """A random number generator object, as passed to `random_split(..., generator=g)`."""

    def __init__(self, device: Any = "cpu") -> None:
        self.device = _device(device) if isinstance(device, str) else device
        self._seed = 67280421310721  # PyTorch's default initial seed
        self._rng = np.random.Generator(np.random.PCG64(self._seed))

    def manual_seed(self, seed: int) -> Generator:
        """Reseed and return self (so `torch.Generator().manual_seed(0)` chains)."""
        self._seed = int(seed)
        self._rng = np.random.Generator(np.random.PCG64(self._seed))
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        """Reseed from fresh entropy and return the new seed."""
        new = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]) % (2**63)
        self.manual_seed(new)
        return new

    def get_state(self) -> Any:
        return self._rng.bit_generator.state

    def set_state(self, state: Any) -> Generator:
        self._rng.bit_generator.state = state
        return self

    def permutation(self, n: int) -> list[int]:
        """A permutation of range(n) drawn from this generator (engine-internal helper)."""
        return [int(i) for i in self._rng.permutation(n)]
