"""`torch.accelerator` of a CPU-only build: no accelerator.

>>> torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
'cpu'
"""

from __future__ import annotations

from typing import Any


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False) -> Any:
    return None


def device_count() -> int:
    return 0
