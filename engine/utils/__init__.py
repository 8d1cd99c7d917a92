"""`torch.utils`: `data` (datasets and loaders) and `checkpoint`."""

from engine.utils import checkpoint, data

__all__ = ["checkpoint", "data"]
