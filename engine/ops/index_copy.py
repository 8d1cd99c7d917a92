"""`index_copy`: rows of `source` written at `index` along `dim` (IndexCopyBackward0)."""

from __future__ import annotations

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.table import Op


def index_copy(self: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """A copy of self with self.select(dim, index[i]) = source.select(dim, i)."""
    idx = index._d
    if idx.dtype != np.int64:
        from engine.ops.inplace import type_name

        raise RuntimeError(
            f"index_copy_(): Expected a long tensor for index, but got {type_name(index.dtype)}"
        )
    d = dim % max(self._d.ndim, 1)
    out = self._d.copy()
    src = source._d.astype(out.dtype)
    if self._d.ndim == 0:
        out[...] = src.reshape(())
    else:
        where = [slice(None)] * out.ndim
        where[d] = idx.reshape(-1)  # type: ignore[call-overload]
        out[tuple(where)] = src.reshape(np.take(out, idx.reshape(-1), axis=d).shape)
    saved = {"dim": dim, "index": index, "source": source, "source_dim": source._d.ndim}
    return record(IndexCopyBackward0, out, (self, source), saved)


class IndexCopyBackward0(OpNode):
    __slots__ = ()
    _name = "IndexCopyBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        dim, index = self.saved("dim"), self.saved("index")
        flat = make(index._d.reshape(-1), False, None, 0)
        gs = gsrc = None
        if self.needs(0):
            gs = g.index_fill(dim, flat, 0)
        if self.needs(1):
            gsrc = g.index_select(dim, flat)
            if self.saved("source_dim") == 0:
                gsrc = gsrc.reshape(())
        return [gs, gsrc]


OPS = [
    Op("index_copy", index_copy, inplace=True, out=True),
]
