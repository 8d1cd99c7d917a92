"""pad (constant, reflect, replicate, circular); defined with the pad ops (engine/ops/nn_pad.py),
which torch.stft pads through too."""

from __future__ import annotations

from engine.ops.nn_pad import pad, pad_circular

__all__ = ["pad", "pad_circular"]
