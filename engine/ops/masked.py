"""Mask-driven ops: masked_fill, masked_select and masked_scatter."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._dtype import CPP_NAMES
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, unbroadcast
from engine.ops.broadcasting import broadcast_shape
from engine.ops.index import index_put
from engine.ops.inplace import type_name
from engine.ops.table import Op


def _zeros(shape: tuple[int, ...], like: Tensor) -> Tensor:
    return make(np.zeros(shape, like._d.dtype), False, None, 0)


def masked_fill(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    """`value` where `mask` is True (MaskedFillBackward0; 1 for a tensor value)."""
    if mask._d.dtype != np.bool_:
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            + CPP_NAMES[mask._d.dtype.name]
        )
    m = np.broadcast_to(mask._d, broadcast_shape(mask._d.shape, self._d.shape))
    if isinstance(value, Tensor):
        if value._d.ndim:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value._d.ndim} dimension(s)."
            )
        data = np.where(m, value._d.astype(self._d.dtype), self._d)
        return record(MaskedFillBackward1, data, (self, value), {"mask": mask})
    data = np.where(m, np.asarray(value, self._d.dtype), self._d)
    return record(MaskedFillBackward0, data, (self,), {"mask": mask})


class MaskedFillBackward0(OpNode):
    __slots__ = ()
    _name = "MaskedFillBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [masked_fill(g, self.saved("mask"), 0.0)]


class MaskedFillBackward1(OpNode):
    __slots__ = ()
    _name = "MaskedFillBackward1"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.reduce import sum as _sum

        g = grads[0]
        assert g is not None
        mask = self.saved("mask")
        gv = None
        if self.needs(1):
            gv = _sum(masked_select(g, mask))
        return [masked_fill(g, mask, 0.0) if self.needs(0) else None, gv]


def masked_select(self: Tensor, mask: Tensor) -> Tensor:
    """The entries where `mask` (broadcast) is True, as 1-D (MaskedSelectBackward0)."""
    shape = np.broadcast_shapes(self._d.shape, mask._d.shape)
    data = np.broadcast_to(self._d, shape)[np.broadcast_to(mask._d, shape)]
    saved = {"mask": mask, "self": self}
    return record(MaskedSelectBackward0, data, (self,), saved, shapes=(self._d.shape,))


class MaskedSelectBackward0(OpNode):
    __slots__ = ()
    _name = "MaskedSelectBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        mask = self.saved("mask")
        shape = np.broadcast_shapes(self._shapes[0], mask._d.shape)
        m = make(np.broadcast_to(mask._d, shape), False, None, 0)
        full = index_put(_zeros(shape, g), (m,), g)
        return [unbroadcast(full, self._shapes[0])]


def masked_scatter(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """A copy with `source`'s leading entries written where `mask` is True, in order
    (MaskedScatterBackward0)."""
    if mask._d.dtype != np.bool_:
        raise RuntimeError(
            "masked_scatter_ only supports boolean masks, but got mask with dtype "
            + type_name(mask.dtype)
        )
    if self.dtype is not source.dtype:
        raise RuntimeError(
            "masked_scatter: expected self and source to have same dtypes but got"
            f"{type_name(self.dtype)} and {type_name(source.dtype)}"
        )
    m = np.broadcast_to(mask._d, self._d.shape)
    n = int(m.sum())
    if n > source._d.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    out = self._d.copy()
    out[m] = source._d.reshape(-1)[:n]
    saved = {"mask": mask, "source_sym_sizes": source._d.shape}
    return record(MaskedScatterBackward0, out, (self, source), saved)


class MaskedScatterBackward0(OpNode):
    __slots__ = ()
    _name = "MaskedScatterBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        mask = self.saved("mask")
        gs = masked_fill(g, mask, 0.0) if self.needs(0) else None
        gsrc = None
        if self.needs(1):
            from engine.ops.shape import reshape
            from engine.ops.tensor_shape import cat

            shape = self.saved("source_sym_sizes")
            picked = masked_select(g, mask)  # recorded, so double backward works
            rest = int(np.prod(shape)) - picked._d.size
            if rest:
                picked = cat([picked, _zeros((rest,), g)])
            gsrc = reshape(picked, shape)
        return [gs, gsrc]


OPS = [
    Op("masked_fill", masked_fill, inplace=True),
    Op("masked_select", masked_select, out=True),
    Op("masked_scatter", masked_scatter, inplace=True),
]
