"""`torch.version`: what PyTorch's CPU build reports (snippets print these)."""

from __future__ import annotations

__version__ = "2.13.0+cpu"
cuda: str | None = None
hip: str | None = None
xpu: str | None = None
debug = False
