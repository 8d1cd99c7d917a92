"""`torch.backends.openmp`: reported as PyTorch's CPU build reports it."""

from __future__ import annotations


def is_available() -> bool:
    return True
