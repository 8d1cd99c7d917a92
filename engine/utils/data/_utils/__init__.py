"""`torch.utils.data._utils`: what the loader applies to the items it reads."""

from engine.utils.data._utils import collate

__all__ = ["collate"]
