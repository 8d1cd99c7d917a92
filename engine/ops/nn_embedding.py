"""`F.embedding`: rows of a weight picked by indices, and the in-place `embedding_renorm_`
that `max_norm` applies first."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, writing
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import linear_grad

Array = np.ndarray[Any, Any]


def embedding(
    weight: Tensor, indices: Tensor, padding_idx: int = -1, scale_grad_by_freq: bool = False
) -> Tensor:
    """Rows of `weight` picked by integer `indices` (scale_grad_by_freq: each row's gradient
    divided by how often the row was picked)."""
    idx = indices._d
    if _dtype.kind(idx.dtype) not in "iu":
        from engine._printing import legacy_type_name

        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got {legacy_type_name(indices.dtype)} instead (while "
            "checking arguments for embedding)"
        )
    n = weight._d.shape[0]
    if idx.size and (idx.max() >= n or idx.min() < -n or idx.min() < 0):
        raise IndexError("index out of range in self")
    out = weight._d[idx]
    saved = {"indices": indices, "padding_idx": padding_idx, "weight_sym_argsize_0": n}
    saved.update({"scale_grad_by_freq": bool(scale_grad_by_freq), "sparse": False})
    return record(EmbeddingBackward0, out, (weight,), saved)


class EmbeddingBackward0(OpNode):
    __slots__ = ()
    _name = "EmbeddingBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        idx = self.saved("indices")._d
        n, pad = self.saved("weight_sym_argsize_0"), self.saved("padding_idx")
        freq = (
            np.bincount(idx.reshape(-1), minlength=n) if self.saved("scale_grad_by_freq") else None
        )

        def scatter(gd: Array) -> Array:
            d = gd.reshape(idx.size, -1)
            if freq is not None:
                d = d / freq[idx.reshape(-1)][:, None].astype(gd.dtype)
            out = np.zeros((n, d.shape[1]), gd.dtype)
            np.add.at(out, idx.reshape(-1), d)
            if pad is not None and pad >= 0:
                out[pad] = 0
            return out

        def gather(gg: Array) -> Array:
            if pad is not None and pad >= 0:
                gg = gg.copy()
                gg[pad] = 0
            out = gg[idx]
            if freq is not None:
                out = out / freq[idx][..., None].astype(gg.dtype)
            return np.ascontiguousarray(out)

        # ATen's embedding_dense_backward: EmbeddingDenseBackwardBackward0 under create_graph
        return [linear_grad("EmbeddingDenseBackward0", g, scatter, gather)]


def embedding_renorm_(weight: Tensor, input: Tensor, max_norm: float, norm_type: float) -> Tensor:
    """Scale, in place and unrecorded, each row of `weight` that `input` picks and whose
    `norm_type`-norm exceeds `max_norm` down to `max_norm` (PyTorch divides by norm + 1e-7)."""
    rows = np.unique(input._d.reshape(-1))
    w = weight._d
    norms = np.linalg.norm(w[rows].astype(np.float64), ord=float(norm_type), axis=1)
    over = norms > max_norm
    with writing(weight):
        scale = (max_norm / (norms[over] + 1e-7)).astype(w.dtype)
        w[rows[over]] *= scale[:, None]
    return weight
