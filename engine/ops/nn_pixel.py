"""`F.pixel_shuffle` / `F.pixel_unshuffle`: (C*r*r, H, W) <-> (C, H*r, W*r), each the other's
backward."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.table import Op


def _shuffle(a: Any, r: int) -> Any:
    *lead, c, h, w = a.shape
    n = len(lead)
    x = a.reshape(*lead, c // (r * r), r, r, h, w)
    x = x.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)  # (*, C, H, r, W, r)
    return np.ascontiguousarray(x).reshape(*lead, c // (r * r), h * r, w * r)


def _unshuffle(a: Any, r: int) -> Any:
    *lead, c, h, w = a.shape
    n = len(lead)
    x = a.reshape(*lead, c, h // r, r, w // r, r)
    x = x.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)  # (*, C, r, r, H, W)
    return np.ascontiguousarray(x).reshape(*lead, c * r * r, h // r, w // r)


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """Rearrange (*, C*r^2, H, W) into (*, C, H*r, W*r)."""
    r = int(upscale_factor)
    c = input.shape[-3]
    if c % (r * r):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
            f"of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}"
        )
    out = _shuffle(input._d, r)
    return record(PixelShuffleBackward0, out, (input,), {"upscale_factor": r})


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """Rearrange (*, C, H*r, W*r) into (*, C*r^2, H, W)."""
    r = int(downscale_factor)
    h, w = input.shape[-2], input.shape[-1]
    if h % r or w % r:
        bad, name = (h, "height") if h % r else (w, "width")
        raise RuntimeError(
            f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but input.size"
            f"({-2 if name == 'height' else -1})={bad} is not divisible by {r}"
        )
    out = _unshuffle(input._d, r)
    return record(PixelUnshuffleBackward0, out, (input,), {"downscale_factor": r})


class PixelShuffleBackward0(OpNode):
    __slots__ = ()
    _name = "PixelShuffleBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [pixel_unshuffle(g, self.saved("upscale_factor"))]


class PixelUnshuffleBackward0(OpNode):
    __slots__ = ()
    _name = "PixelUnshuffleBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [pixel_shuffle(g, self.saved("downscale_factor"))]


OPS = [
    Op("pixel_shuffle", pixel_shuffle, method=False),
    Op("pixel_unshuffle", pixel_unshuffle, method=False),
]
