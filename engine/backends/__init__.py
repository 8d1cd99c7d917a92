"""`torch.backends` of a CPU-only build (flags people set in seeding boilerplate).

>>> torch.backends.cudnn.deterministic = True; torch.backends.mps.is_available()
False
"""

from __future__ import annotations

from engine.backends import cuda, cudnn, mkl, mps, openmp

__all__ = ["cuda", "cudnn", "mkl", "mps", "openmp"]
