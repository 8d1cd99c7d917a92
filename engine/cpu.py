"""`torch.cpu`: the CPU device module (always available, one device) and `torch.cpu.amp`.

>>> torch.cpu.is_available()
True
"""

from __future__ import annotations

import sys

from engine import cpu_amp as amp

sys.modules.setdefault(__name__ + ".amp", amp)  # `from torch.cpu.amp import autocast`


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> str:
    return "cpu"


def synchronize(device: object = None) -> None:
    return None
