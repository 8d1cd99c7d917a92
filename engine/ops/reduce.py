"""Reductions: sum, mean, prod, max/min, var/std, norm, softmax, log_softmax, logsumexp."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record


def dims_of(dim: Any, ndim: int) -> tuple[int, ...] | None:
    """Normalise a `dim` argument (int, sequence or None) to sorted non-negative axes."""
    if dim is None:
        return None
    if isinstance(dim, int):
        dim = (dim,)
    n = max(ndim, 1)
    out = []
    for d in dim:
        if not -n <= d < n:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})"
            )
        out.append(d % n)
    return tuple(sorted(set(out)))


def sum(self: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A001
    """Sum of all elements, or over `dim`."""
    a = self._d
    if dtype is not None:
        a = a.astype(dtype.np)
    elif a.dtype.kind in "biu":
        a = a.astype(np.int64)
    if dim is None or (isinstance(dim, list | tuple) and len(dim) == 0 and False):
        out = np.asarray(a.sum())
        return record(SumBackward0, out, (self,), shapes=(self._d.shape,))
    axes = dims_of(dim, a.ndim)
    out = np.asarray(a.sum(axis=axes if a.ndim else None, keepdims=keepdim))
    saved = {"dim": axes, "keepdim": keepdim}
    return record(SumBackward1, out, (self,), saved, shapes=(self._d.shape,))


class SumBackward0(OpNode):
    __slots__ = ()
    _name = "SumBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.shape import expand

        g = grads[0]
        assert g is not None and self._shapes is not None
        return [expand(g, self._shapes[0])]


class SumBackward1(OpNode):
    __slots__ = ()
    _name = "SumBackward1"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        return [_expand_back(g, self._shapes[0], self.saved("dim"), self.saved("keepdim"))]


def _expand_back(g: Tensor, shape: tuple[int, ...], axes: tuple[int, ...] | None, keepdim: bool) -> Tensor:
    """Broadcast a reduced gradient back to the input's shape."""
    from engine.ops.shape import expand, reshape

    if not keepdim and shape:
        kept = list(shape)
        for ax in axes if axes is not None else range(len(shape)):
            kept[ax] = 1
        g = reshape(g, tuple(kept))
    return expand(g, shape)


def mean(self: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Mean of all elements, or over `dim`."""
    a = self._d
    if dtype is not None:
        a = a.astype(dtype.np)
    if a.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {_dtype.from_numpy(a.dtype).name.capitalize()}"
        )
    if dim is None:
        out = np.asarray(a.mean(), dtype=a.dtype)
        return record(MeanBackward0, out, (self,), shapes=(self._d.shape,))
    axes = dims_of(dim, a.ndim)
    out = np.asarray(a.mean(axis=axes if a.ndim else None, keepdims=keepdim), dtype=a.dtype)
    saved = {"dim": axes, "keepdim": keepdim}
    return record(MeanBackward1, out, (self,), saved, shapes=(self._d.shape,))


class MeanBackward0(OpNode):
    __slots__ = ()
    _name = "MeanBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.shape import expand

        g = grads[0]
        assert g is not None and self._shapes is not None
        shape = self._shapes[0]
        n = int(np.prod(shape)) if shape else 1
        return [expand(g / n, shape)]  # type: ignore[operator]


class MeanBackward1(OpNode):
    __slots__ = ()
    _name = "MeanBackward1"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        shape = self._shapes[0]
        axes = self.saved("dim")
        n = int(np.prod([shape[a] for a in axes])) if shape else 1
        return [_expand_back(g / n, shape, axes, self.saved("keepdim"))]  # type: ignore[operator]


TENSOR_METHODS = ("sum", "mean")
TORCH_FUNCTIONS = TENSOR_METHODS
