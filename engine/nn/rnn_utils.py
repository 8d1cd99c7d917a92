"""`torch.nn.utils.rnn.pad_sequence`: stack sequences of different lengths, padded.

>>> pad_sequence([torch.ones(2), torch.ones(1)], batch_first=True)
tensor([[1., 1.],
        [1., 0.]])
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from engine._tensor import Tensor

torch: Any = importlib.import_module("engine")


def pad_sequence(
    sequences: Sequence[Tensor] | Tensor,
    batch_first: bool = False,
    padding_value: float = 0.0,
    padding_side: str = "right",
) -> Tensor:
    """ATen's way: a filled tensor, each sequence copied into its slot (so CopySlices)."""
    if padding_side not in ("left", "right"):
        raise ValueError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    seqs = list(sequences)
    longest = max(s.shape[0] for s in seqs)
    trailing = tuple(seqs[0].shape[1:])
    dims = (len(seqs), longest, *trailing) if batch_first else (longest, len(seqs), *trailing)
    out = torch.full(dims, padding_value, dtype=seqs[0].dtype)
    for i, s in enumerate(seqs):
        n = s.shape[0]
        start = longest - n if padding_side == "left" else 0
        out.select(0 if batch_first else 1, i).narrow(0, start, n).copy_(s)
    return out  # type: ignore[no-any-return]
