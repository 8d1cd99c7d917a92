"""`torch.backends.cudnn`: settable flags; cuDNN itself is never available here."""

from __future__ import annotations

enabled = True
deterministic = False
benchmark = False
allow_tf32 = True


def is_available() -> bool:
    return False


def version() -> None:
    return None
