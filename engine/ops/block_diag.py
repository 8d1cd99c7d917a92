"""`torch.block_diag` (one `BlockDiagBackward0` node), `torch.diagflat` and
`torch.unravel_index`."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.table import Op


def _as2d(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return a.reshape(1, -1) if a.ndim < 2 else a


def block_diag(*tensors: Tensor) -> Tensor:
    """A block-diagonal matrix of the (0-, 1- or 2-d) inputs, in PyTorch's promoted dtype."""

    for i, t in enumerate(tensors):
        if t._d.ndim > 2:
            raise RuntimeError(
                f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                f"{t._d.ndim} dimensions"
            )
    if not tensors:
        return make(np.zeros((1, 0), np.float32), False, None, 0)
    dt = tensors[0].dtype
    for t in tensors[1:]:
        dt = _dtype.promote_types(dt, t.dtype)
    blocks = [_as2d(t._d) for t in tensors]
    rows, cols = sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)
    out = np.zeros((rows, cols), dt.np)
    r = c = 0
    for b in blocks:
        out[r : r + b.shape[0], c : c + b.shape[1]] = b
        r, c = r + b.shape[0], c + b.shape[1]
    shapes = tuple(t._d.shape for t in tensors)
    return record(BlockDiagBackward0, out, tuple(tensors), None, shapes=shapes)


class BlockDiagBackward0(OpNode):
    __slots__ = ()
    _name = "BlockDiagBackward0"

    def apply(self, grads: Grads) -> Grads:
        g: Any = grads[0]
        assert self._shapes is not None
        out: Grads = []
        r = c = 0
        for i, shape in enumerate(self._shapes):
            h, w = (1, int(np.prod(shape))) if len(shape) < 2 else shape
            if self.needs(i):
                out.append(g[r : r + h, c : c + w].reshape(shape))
            else:
                out.append(None)
            r, c = r + h, c + w
        return out


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """The flattened input on the `offset` diagonal of a square matrix."""
    from engine.ops.shape_composite import diag_embed

    x: Any = input
    return diag_embed(x.contiguous().view(-1), offset)


def unravel_index(indices: Any, shape: Any) -> tuple[Tensor, ...]:
    """Flat indices to coordinate tensors (one per dim of `shape`)."""
    idx = indices._d if isinstance(indices, Tensor) else np.asarray(indices)
    if _dtype.kind(idx.dtype) not in "iu":
        raise TypeError("expected 'indices' to be integer dtype, but got " + str(indices.dtype))
    dims = (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)
    size = int(np.prod(dims))
    if np.any((idx < -size) | (idx >= size)):
        raise ValueError("index out of bounds for shape")
    coords = np.unravel_index(np.where(idx < 0, idx + size, idx), dims)
    return tuple(make(np.asarray(c, np.int64), False, None, 0) for c in coords)


OPS = [
    Op("diagflat", diagflat),
    Op("block_diag", block_diag, method=False),
    Op("unravel_index", unravel_index, method=False),
]
