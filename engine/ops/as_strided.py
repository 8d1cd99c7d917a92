"""`torch.as_strided`: a view with any sizes, strides (in elements) and offset into the
input's storage. Its gradient sums over output elements that read the same input element.

`torch.as_strided_scatter` writes `src` where that view would read, into a copy of the input's
whole storage laid out as the input is (ATen's clone_preserve_strides; a plain clone when the
input overlaps itself). Its backward is ATen's as_strided_scatter_backward, which gives
`src` the gradient's strided view and `self` that view written into zeros (not the gradient
with it zeroed: PyTorch's formula, kept as PyTorch computes it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._arg_parser import ArgParser, with_parser
from engine._tensor import Tensor, make
from engine.autograd.forward_ad import FW
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, wants_grad
from engine.ops.shape import as_view
from engine.ops.table import Op
from engine.ops.views import AsStridedBackward0


def _memory(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root


def _geometry(
    a: np.ndarray[Any, Any], size: Any, stride: Any, storage_offset: int | None, here: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """as_strided's checks of a view of `a`'s storage (`here`: `a`'s own offset)."""
    shape = tuple(int(s) for s in size)
    steps = tuple(int(s) for s in stride)
    if len(shape) != len(steps):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in steps):
        raise RuntimeError(
            f"as_strided: Negative strides are not supported at the moment, got strides: "
            f"{list(steps)}"
        )
    item = a.itemsize
    root = _memory(a)
    off = here if storage_offset is None else int(storage_offset)
    need = 0 if 0 in shape else off + sum((n - 1) * s for n, s in zip(shape, steps)) + 1
    if need > root.size:
        raise RuntimeError(
            f"setStorage: sizes {list(shape)}, strides {list(steps)}, storage offset {off}, and "
            f"itemsize {item} requiring a storage size of {need * item} are out of bounds for "
            f"storage of size {root.size * item}"
        )
    return shape, steps, off


def as_strided(self: Tensor, size: Any, stride: Any, storage_offset: int | None = None) -> Tensor:
    """A view of `self`'s storage laid out by `size` and `stride` (AsStridedBackward0).

    >>> torch.arange(6.).as_strided((2, 2), (1, 2))
    tensor([[0., 2.],
            [1., 3.]])
    """
    a = self._d
    item = a.itemsize
    root = _memory(a)
    here = self.storage_offset()
    shape, steps, off = _geometry(a, size, stride, storage_offset, here)
    rel = off - here  # from the storage start of whatever array the view is replayed on

    def view_fn(arr: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        mem = _memory(arr)
        start = rel * item + arr.__array_interface__["data"][0] - mem.__array_interface__["data"][0]
        return np.ndarray(
            shape, arr.dtype, buffer=mem, offset=start, strides=tuple(s * item for s in steps)
        )

    data = view_fn(a)
    saved = {"size": shape, "storage_offset": storage_offset, "stride": steps}
    keep = None  # the backward's maps, made only when a node may be (forward AD makes its own)
    if FW.on or wants_grad(self):
        keep = {"view_fn": view_fn, "flat": _read_map(a, root, shape, steps, off)}
    out = record(AsStridedBackward0, data, (self,), saved, shapes=(a.shape,), keep=keep)
    return as_view(out, self, view_fn)


def _read_map(
    a: np.ndarray[Any, Any],
    root: np.ndarray[Any, Any],
    shape: tuple[int, ...],
    steps: tuple[int, ...],
    off: int,
) -> np.ndarray[Any, Any]:
    """For each output element, the flat index of the element of `a` it reads."""
    item = a.itemsize
    owner = np.full(root.size, -1, np.int64)
    base = (a.__array_interface__["data"][0] - root.__array_interface__["data"][0]) // item
    pos = np.full(a.shape, base, np.int64)
    for d, (n, s) in enumerate(zip(a.shape, a.strides)):
        pos = pos + (np.arange(n) * (s // item)).reshape((-1,) + (1,) * (a.ndim - d - 1))
    owner[pos.reshape(-1)] = np.arange(a.size)
    reads = np.full(shape, off, np.int64)
    for d, (n, s) in enumerate(zip(shape, steps)):
        reads = reads + (np.arange(n) * s).reshape((-1,) + (1,) * (len(shape) - d - 1))
    got = owner[reads]
    # storage outside `a` gets no gradient: send those reads to a dropped extra slot
    return np.where(got < 0, a.size, got)


def _flat_positions(shape: tuple[int, ...], steps: tuple[int, ...], off: int) -> Any:
    """The storage index each element of a (size, stride, offset) view reads, in order."""
    pos = np.full(shape, off, np.int64)
    for d, (n, s) in enumerate(zip(shape, steps)):
        pos = pos + (np.arange(n) * s).reshape((-1,) + (1,) * (len(shape) - d - 1))
    return pos.reshape(-1)


def _preserving_clone(a: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], Any]:
    """ATen's clone_preserve_strides: (the copy, its storage as a flat array). A copy of the
    whole storage viewed as `a` is; a plain copy when `a` overlaps itself (a 0 stride)."""
    if any(st == 0 and n > 1 for n, st in zip(a.shape, a.strides)):
        out = np.ascontiguousarray(a).copy()
        return out, out.reshape(-1)
    root = _memory(a)
    flat = np.array(root.reshape(-1, order="A"), copy=True)
    start = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return np.ndarray(a.shape, a.dtype, buffer=flat, offset=start, strides=a.strides), flat


def _as_strided_scatter(
    self: Tensor, src: Tensor, size: Any, stride: Any, storage_offset: int | None = None
) -> Tensor:
    """A copy of `self` with `src` written where `self.as_strided(size, stride,
    storage_offset)` reads (AsStridedScatterBackward0)."""
    if self.requires_grad and not self.is_contiguous():
        raise RuntimeError(
            '!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED at "/__w/'
            'pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp":4754, please report a bug '
            "to PyTorch. as_strided_scatter is currently only supported for contiguous inputs"
        )
    if _dtype.kind(self._d.dtype) not in "fc" and wants_grad(self, src):
        from engine.ops.inplace import type_name

        raise RuntimeError(f"Autograd not support dtype: {type_name(self.dtype)}")
    out, flat = _preserving_clone(self._d)
    here = (out.__array_interface__["data"][0] - flat.__array_interface__["data"][0]) // max(
        out.itemsize, 1
    )
    shape, steps, off = _geometry(flat, size, stride, storage_offset, here)
    if shape != src._d.shape:
        raise RuntimeError(
            "expected src to have a size equal to the slice of self. src size = "
            f"{list(src._d.shape)}, slice size = {list(shape)}"
        )
    flat[_flat_positions(shape, steps, off)] = src._d.astype(out.dtype).reshape(-1)
    saved = {"size": shape, "storage_offset": storage_offset, "stride": steps}
    return record(AsStridedScatterBackward0, out, (self, src), saved, shapes=(self._d.shape,))


class AsStridedScatterBackward0(OpNode):
    """ATen's as_strided_scatter_backward: the contiguous gradient's strided view for `src`,
    and that view scattered into zeros for `self`."""

    __slots__ = ()
    _name = "AsStridedScatterBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        size, stride = self.saved("size"), self.saved("stride")
        offset = self.saved("storage_offset")
        part = as_strided(g.contiguous(), size, stride, offset)
        gs = None
        if self.needs(0):
            zeros = make(np.zeros(self._shapes[0], g._d.dtype), False, None, 0)
            gs = _as_strided_scatter(zeros, part, size, stride, offset)
        return [gs, part if self.needs(1) else None]


as_strided_scatter = with_parser(
    ArgParser(
        "as_strided_scatter",
        ["Tensor input, Tensor src, SymInt[] size, SymInt[] stride, int storage_offset=None"],
    ),
    _as_strided_scatter,
)

OPS = [
    Op("as_strided", as_strided),
    Op("as_strided_scatter", as_strided_scatter),
]
