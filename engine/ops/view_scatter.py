"""The out-of-place view writes: `select_scatter`, `slice_scatter`, `diagonal_scatter` return a
copy of `self` with `src` written into the view `select` / `slice` / `diagonal` would give
(ATen: `self.clone()`, the view, a size check, `copy_`). Differentiable in both inputs:
`self` gets the gradient with the view zeroed, `src` the gradient's view.

>>> torch.select_scatter(torch.zeros(2, 2), torch.ones(2), 0, 0)
tensor([[1., 1.],
        [0., 0.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._arg_parser import ArgParser, with_parser
from engine._tensor import Tensor, _wrap_dim, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, wants_grad
from engine.ops.index import select
from engine.ops.table import Op
from engine.ops.tensor_shape import diagonal

Array = np.ndarray[Any, Any]


def _scatter(
    cls: type[OpNode], self: Tensor, src: Tensor, view: Array, key: Any, saved: dict[str, Any]
) -> Tensor:
    """`self` with `src` (cast to self's dtype) written at `key`, after ATen's size check."""
    if _dtype.kind(self._d.dtype) not in "fc" and wants_grad(self, src):
        from engine.ops.inplace import type_name

        raise RuntimeError(f"Autograd not support dtype: {type_name(self.dtype)}")
    if view.shape != src._d.shape:
        raise RuntimeError(
            "expected src to have a size equal to the slice of self. src size = "
            f"{list(src._d.shape)}, slice size = {list(view.shape)}"
        )
    out = self._d.copy()
    key(out)[...] = src._d.astype(out.dtype)
    return record(cls, out, (self, src), saved, shapes=(src._d.shape,))


def _untracked(t: Tensor) -> Tensor:
    """`t`'s values without its history: the view is taken only to check and shape it."""
    return make(t._d, False, None, 0)


def _select_scatter(self: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of `self` whose `select(dim, index)` is `src`."""
    view = select(_untracked(self), dim, index)._d  # select's own range errors
    d = _wrap_dim(dim, self._d.ndim)
    i = int(index) % self._d.shape[d]
    key: Any = (slice(None),) * d + (i, Ellipsis)
    saved = {"dim": dim, "index": index}
    return _scatter(SelectScatterBackward0, self, src, view, lambda a: a[key], saved)


def _slice_scatter(
    self: Tensor,
    src: Tensor,
    dim: int = 0,
    start: int | None = None,
    end: int | None = None,
    step: int = 1,
) -> Tensor:
    """A copy of `self` whose `[start:end:step]` along `dim` is `src`."""
    d = _wrap_dim(dim, self._d.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    key: Any = (slice(None),) * d + (slice(start, end, step),)
    saved = {"dim": dim, "start": start, "end": end, "step": step}
    return _scatter(SliceScatterBackward0, self, src, self._d[key], lambda a: a[key], saved)


def _diagonal_scatter(
    self: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1
) -> Tensor:
    """A copy of `self` whose `diagonal(offset, dim1, dim2)` is `src`."""
    view = diagonal(_untracked(self), offset, dim1, dim2)._d  # diagonal's own errors
    nd = self._d.ndim
    d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)

    def key(a: Array) -> Array:
        v = np.diagonal(a, offset, d1, d2)
        v.flags.writeable = True
        return v

    saved = {"offset": offset, "dim1": dim1, "dim2": dim2}
    return _scatter(DiagonalScatterBackward0, self, src, view, key, saved)


class _ViewScatterBackward(OpNode):
    """self: the gradient with the view zeroed; src: the gradient's view."""

    __slots__ = ()

    def view_of(self, g: Any) -> Any:
        raise NotImplementedError

    def scatter(self, g: Any, src: Tensor) -> Tensor:
        raise NotImplementedError

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        gs = gsrc = None
        if self.needs(0):
            zeros = make(np.zeros(self._shapes[0], g._d.dtype), False, None, 0)
            gs = self.scatter(g, zeros)
        if self.needs(1):
            gsrc = self.view_of(g)
        return [gs, gsrc]


class SelectScatterBackward0(_ViewScatterBackward):
    __slots__ = ()
    _name = "SelectScatterBackward0"

    def view_of(self, g: Any) -> Any:
        return g.select(self.saved("dim"), self.saved("index"))

    def scatter(self, g: Any, src: Tensor) -> Tensor:
        return _select_scatter(g, src, self.saved("dim"), self.saved("index"))


class SliceScatterBackward0(_ViewScatterBackward):
    __slots__ = ()
    _name = "SliceScatterBackward0"

    def _key(self) -> tuple[int, slice]:
        s = self.saved
        return s("dim"), slice(s("start"), s("end"), s("step"))

    def view_of(self, g: Any) -> Any:
        dim, sl = self._key()
        d = _wrap_dim(dim, g._d.ndim)
        return g[(slice(None),) * d + (sl,)]

    def scatter(self, g: Any, src: Tensor) -> Tensor:
        s = self.saved
        return _slice_scatter(g, src, s("dim"), s("start"), s("end"), s("step"))


class DiagonalScatterBackward0(_ViewScatterBackward):
    __slots__ = ()
    _name = "DiagonalScatterBackward0"

    def view_of(self, g: Any) -> Any:
        return g.diagonal(self.saved("offset"), self.saved("dim1"), self.saved("dim2"))

    def scatter(self, g: Any, src: Tensor) -> Tensor:
        s = self.saved
        return _diagonal_scatter(g, src, s("offset"), s("dim1"), s("dim2"))


select_scatter = with_parser(
    ArgParser("select_scatter", ["Tensor input, Tensor src, int dim, int index"]), _select_scatter
)
slice_scatter = with_parser(
    ArgParser(
        "slice_scatter",
        ["Tensor input, Tensor src, int dim=0, int start=None, int end=None, int step=1"],
    ),
    _slice_scatter,
)
diagonal_scatter = with_parser(
    ArgParser(
        "diagonal_scatter", ["Tensor input, Tensor src, int offset=0, int dim1=0, int dim2=1"]
    ),
    _diagonal_scatter,
)

OPS = [
    Op("select_scatter", select_scatter),
    Op("slice_scatter", slice_scatter, out=True),
    Op("diagonal_scatter", diagonal_scatter),
]
