"""ChannelShuffle."""

from __future__ import annotations

from engine._tensor import Tensor
from engine.nn import functional as F
from engine.nn.modules.module import Module


class ChannelShuffle(Module):
    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


__all__ = [
    "ChannelShuffle",
]
