"""`torch.backends.mkl`: reported as PyTorch's x86 CPU build reports it."""

from __future__ import annotations


def is_available() -> bool:
    return True
