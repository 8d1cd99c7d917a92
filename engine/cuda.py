"""`torch.cuda` of a CPU-only build: nothing available, seeding is a no-op, the rest refuses.

>>> torch.device("cuda" if torch.cuda.is_available() else "cpu")
device(type='cpu')
"""

from __future__ import annotations

import sys
from typing import Any

from engine import cuda_amp as amp

sys.modules.setdefault(__name__ + ".amp", amp)  # `from torch.cuda.amp import GradScaler`

_NO_CUDA = "Torch not compiled with CUDA enabled"


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed: int) -> None:
    """Lazily seeds CUDA generators in PyTorch; with no CUDA it does nothing."""


def manual_seed_all(seed: int) -> None:
    """Lazily seeds CUDA generators in PyTorch; with no CUDA it does nothing."""


def empty_cache() -> None:
    """Nothing is cached without CUDA."""


def memory_allocated(device: Any = None) -> int:
    return 0


def max_memory_allocated(device: Any = None) -> int:
    return 0


def memory_reserved(device: Any = None) -> int:
    return 0


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError(_NO_CUDA)


current_device = synchronize = get_device_name = get_device_properties = set_device = _refuse
init = _refuse
