"""`torch.utils`: `data` (datasets and loaders), `checkpoint` and `hooks`."""

from engine.utils import checkpoint, data, hooks

__all__ = ["checkpoint", "data", "hooks"]
