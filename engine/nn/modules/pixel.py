"""`nn.PixelShuffle` / `nn.PixelUnshuffle` (sub-pixel convolution upsampling)."""

from __future__ import annotations

from engine._tensor import Tensor
from engine.nn.modules.module import Module
from engine.ops.nn_pixel import pixel_shuffle, pixel_unshuffle


class PixelShuffle(Module):
    """(*, C*r^2, H, W) -> (*, C, H*r, W*r)."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H*r, W*r) -> (*, C*r^2, H, W)."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


__all__ = ["PixelShuffle", "PixelUnshuffle"]
