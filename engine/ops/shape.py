"""Shape ops: view, reshape, expand and friends. Views share storage and version counter."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record


def as_view(out: Tensor, base: Tensor, view_fn: Any) -> Tensor:
    """Mark `out` as a view of `base`: shared version counter, replayable view function."""
    out._ver = base._ver
    root = base._base if base._base is not None else base
    out._base = root
    prev = base._view_fn
    out._view_fn = view_fn if prev is None else (lambda a, p=prev, f=view_fn: f(p(a)))
    return out


def _shape_arg(shape: Any) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], list | tuple):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _infer(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    if -1 in shape:
        if shape.count(-1) > 1:
            raise RuntimeError("only one dimension can be inferred")
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    n = 1
    for s in shape:
        n *= s
    if n != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def view(self: Tensor, *shape: Any) -> Tensor:
    """Same storage, new shape (the tensor must be viewable: here, contiguous)."""
    if len(shape) == 1 and not isinstance(shape[0], int | list | tuple):
        from engine.ops.convert import view_dtype

        return view_dtype(self, shape[0])
    shp = _infer(_shape_arg(shape), self._d.size)
    if not self._d.flags.c_contiguous and self._d.ndim > 1 and self._d.size > 1:
        try:
            data = self._d.view()
            data.shape = shp
        except AttributeError:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
            ) from None
    else:
        data = self._d.reshape(shp)
    out = record(ViewBackward0, data, (self,), shapes=(self._d.shape,))
    return as_view(out, self, lambda a, s=shp: a.reshape(s))


class ViewBackward0(OpNode):
    __slots__ = ()
    _name = "ViewBackward0"

    def apply(self, grads: Grads) -> Grads:
        assert self._shapes is not None
        return [reshape(grads[0], self._shapes[0])]  # type: ignore[arg-type]


def reshape(self: Tensor, *shape: Any) -> Tensor:
    """A view when the layout allows, else a copy (UnsafeViewBackward0 over CloneBackward0)."""
    shp = _infer(_shape_arg(shape), self._d.size)
    if self._d.flags.c_contiguous or self._d.size <= 1:
        return view(self, shp)
    from engine.ops.shape_extra import clone

    c = clone(self)
    out = record(UnsafeViewBackward0, c._d.reshape(shp), (c,), shapes=(c._d.shape,))
    return out


class UnsafeViewBackward0(OpNode):
    __slots__ = ()
    _name = "UnsafeViewBackward0"

    def apply(self, grads: Grads) -> Grads:
        assert self._shapes is not None
        return [reshape(grads[0], self._shapes[0])]  # type: ignore[arg-type]


def expand(self: Tensor, *sizes: Any) -> Tensor:
    """Broadcast to a larger shape without copying (-1 keeps a dimension)."""
    shp = _shape_arg(sizes)
    nd = len(shp)
    if nd < self._d.ndim:
        raise RuntimeError(
            f"expand(torch.FloatTensor{{{list(self._d.shape)}}}, size={list(shp)}): the number of "
            "sizes provided (" + str(nd) + ") must be greater or equal to the number of dimensions "
            f"in the tensor ({self._d.ndim})"
        )
    lead = nd - self._d.ndim
    target = []
    for i, s in enumerate(shp):
        if s == -1:
            if i < lead:
                raise RuntimeError(
                    f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                    f"non-existing dimension {i}"
                )
            s = self._d.shape[i - lead]
        target.append(s)
    tshape = tuple(target)
    if tshape == self._d.shape:
        data = self._d.view()
    else:
        for i, s in enumerate(self._d.shape):
            if s != 1 and s != tshape[i + lead]:
                raise RuntimeError(
                    f"The expanded size of the tensor ({tshape[i + lead]}) must match the existing "
                    f"size ({s}) at non-singleton dimension {i + lead}.  Target sizes: "
                    f"{list(shp)}.  Tensor sizes: {list(self._d.shape)}"
                )
        data = np.broadcast_to(self._d, tshape)
    out = record(ExpandBackward0, data, (self,), shapes=(self._d.shape,))
    return as_view(out, self, lambda a, s=tshape: np.broadcast_to(a, s))


class ExpandBackward0(OpNode):
    __slots__ = ()
    _name = "ExpandBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops._core import unbroadcast

        assert self._shapes is not None
        return [unbroadcast(grads[0], self._shapes[0])]  # type: ignore[arg-type]


TENSOR_METHODS = ("view", "reshape", "expand")
TORCH_FUNCTIONS = ("reshape",)
