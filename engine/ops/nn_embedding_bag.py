"""`F.embedding_bag`: sums, means or maxima of bags of embedding rows, one
`EmbeddingBagBackward0` node (edges: weight, per_sample_weights)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import Array, const

_MODES = {"sum": 0, "mean": 1, "max": 2}


def _bags(idx: Array, offsets: Array | None, last: bool) -> list[Array]:
    """The positions in the flat index array belonging to each bag."""
    if offsets is None:
        n = idx.shape[1]
        return [np.arange(b * n, (b + 1) * n) for b in range(idx.shape[0])]
    # with include_last_offset the final offset is dropped: the last bag runs to the end
    starts = list(offsets[:-1] if last else offsets)
    ends = [*starts[1:], idx.size]
    return [np.arange(int(s), int(e)) for s, e in zip(starts, ends)]


def embedding_bag(
    input: Tensor,
    weight: Tensor,
    offsets: Tensor | None = None,
    max_norm: Any = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Tensor:
    """Reduce each bag of looked-up rows of `weight` with `mode` ('sum', 'mean' or 'max')."""
    idx = input._d
    if idx.ndim == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch "
                "of fixed length sequences. However, found offsets of type Tensor"
            )
        off = None
    elif idx.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        off = offsets._d
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {idx.ndim}")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub."
        )
    if max_norm is not None:
        from engine.ops.nn_embedding import embedding_renorm_

        embedding_renorm_(weight, input, max_norm, norm_type)
    flat, w = idx.reshape(-1), weight._d
    psw = None if per_sample_weights is None else per_sample_weights._d.reshape(-1)
    bags = _bags(idx, off, include_last_offset)
    out = np.zeros((len(bags), w.shape[1]), w.dtype)
    arg = np.full((len(bags), w.shape[1]), -1, np.int64)
    for b, pos in enumerate(bags):
        pos = pos[flat[pos] != padding_idx] if padding_idx is not None else pos
        if not pos.size:
            continue
        rows = w[flat[pos]]
        if mode == "max":
            k = rows.argmax(0)
            out[b], arg[b] = rows[k, np.arange(w.shape[1])], flat[pos][k]
        else:
            rows = rows * psw[pos][:, None] if psw is not None else rows
            out[b] = rows.sum(0) / (pos.size if mode == "mean" else 1)
    saved = {
        "weight": weight,
        "indices": input,
        "offsets": offsets,
        "mode": _MODES[mode],
        "per_sample_weights": per_sample_weights,
        "padding_idx": -1 if padding_idx is None else padding_idx,
        "scale_grad_by_freq": scale_grad_by_freq,
        "sparse": sparse,
        "weight_sym_argsize_0": w.shape[0],
        "result1": const(arg),
        "result2": const(np.zeros(0, np.int64)),
        "result3": const(np.zeros(0, np.int64)),
    }
    return record(EmbeddingBagBackward0, out, (weight, per_sample_weights), saved)


class EmbeddingBagBackward0(OpNode):
    __slots__ = ()
    _name = "EmbeddingBagBackward0"
    _tensors = frozenset(("offsets", "per_sample_weights"))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        gd = g._d
        w: Any = self.saved("weight")
        idx = self.saved("indices")._d
        offs = self.saved("offsets")
        mode, pad = self.saved("mode"), self.saved("padding_idx")
        pst = self.saved("per_sample_weights")
        psw = None if pst is None else pst._d.reshape(-1)
        flat = idx.reshape(-1)
        # include_last_offset: one offset more than there are bags (gradient rows)
        last = offs is not None and offs._d.size != gd.shape[0]
        bags = _bags(idx, None if offs is None else offs._d, last)
        gw = np.zeros(w._d.shape, gd.dtype)
        gp = None if psw is None else np.zeros(psw.shape, gd.dtype)
        arg = self.saved("result1")._d
        for b, pos in enumerate(bags):
            pos = pos[flat[pos] != pad] if pad >= 0 else pos
            if not pos.size:
                continue
            if mode == 2:
                np.add.at(gw, (arg[b], np.arange(gw.shape[1])), gd[b])
                continue
            scale = (psw[pos] if psw is not None else np.ones(pos.size)) / (
                pos.size if mode == 1 else 1
            )
            np.add.at(gw, flat[pos], gd[b][None, :] * scale[:, None])
            if gp is not None:
                gp[pos] = w._d[flat[pos]] @ gd[b]
        gpt = None
        if gp is not None and self.needs(1):
            gpt = const(gp.reshape(pst._d.shape))
        return [const(gw) if self.needs(0) else None, gpt]
