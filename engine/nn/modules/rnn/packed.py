"""ATen's packed layers: a direction of a recurrent layer over a PackedSequence's data.

At step t only the first batch_sizes[t] rows advance. Going forward, the rows whose sequences
ended are sliced off the hidden state (and joined back, reversed, as h_n); going backward, rows
join the hidden state as their sequences begin. Step outputs are catted (CatBackward0).
"""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.nn import functional as F
from engine.nn.modules.rnn.cell import cat, rnn_step

Weights = tuple[Tensor, Tensor, Any, Any, Any]  # w_ih, w_hh, b_ih, b_hh, w_hr


def hidden_slice(h: Any, start: int, end: int) -> Any:
    if isinstance(h, tuple):
        return tuple(t.narrow(0, start, end - start) for t in h)
    return h.narrow(0, start, end - start)


def hidden_cat(hs: list[Any]) -> Any:
    if isinstance(hs[0], tuple):
        return tuple(cat(list(parts), 0) for parts in zip(*hs, strict=True))
    return cat(hs, 0)


def permute(hx: Any, index: Tensor) -> Any:
    """PyTorch's permute_hidden: the batch dimension (1) reordered by index_select."""
    if isinstance(hx, tuple):
        return tuple(h.index_select(1, index) for h in hx)
    return hx.index_select(1, index)


def packed_direction(
    mode: str, weights: Weights, data: Tensor, sizes: list[int], h: Any, d: int
) -> tuple[Tensor, Any]:
    """ATen's PackedLayer (d=0) / ReversedPackedLayer (d=1): at step t only the first
    sizes[t] rows advance; finished rows' states are sliced off (forward) or joined in
    (reverse) as the batch shrinks or grows."""
    w_ih, w_hh, b_ih, b_hh, w_hr = weights
    gi_all = F.linear(data, w_ih, b_ih)
    outs: list[Tensor] = []
    if d == 0:
        offset, last, done = 0, sizes[0], []
        for b in sizes:
            if b < last:
                done.append(hidden_slice(h, b, last))
                h = hidden_slice(h, 0, b)
            h = rnn_step(mode, gi_all.narrow(0, offset, b), h, w_hh, b_hh, w_hr)
            outs.append(h[0] if mode == "LSTM" else h)
            offset, last = offset + b, b
        done.append(h)
        return cat(outs, 0), hidden_cat(done[::-1])
    h_in, offset, last = h, data.shape[0], sizes[-1]
    h = hidden_slice(h_in, 0, last)
    for b in reversed(sizes):
        if b > last:
            h = hidden_cat([h, hidden_slice(h_in, last, b)])
        h = rnn_step(mode, gi_all.narrow(0, offset - b, b), h, w_hh, b_hh, w_hr)
        outs.append(h[0] if mode == "LSTM" else h)
        offset, last = offset - b, b
    return cat(outs[::-1], 0), h
