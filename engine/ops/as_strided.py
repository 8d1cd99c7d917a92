"""`torch.as_strided`: a view with any sizes, strides (in elements) and offset into the
input's storage. Its gradient sums over output elements that read the same input element.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.forward_ad import FW
from engine.ops._core import record, wants_grad
from engine.ops.shape import as_view
from engine.ops.table import Op
from engine.ops.views import AsStridedBackward0


def _memory(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root


def as_strided(self: Tensor, size: Any, stride: Any, storage_offset: int | None = None) -> Tensor:
    """A view of `self`'s storage laid out by `size` and `stride` (AsStridedBackward0).

    >>> torch.arange(6.).as_strided((2, 2), (1, 2))
    tensor([[0., 2.],
            [1., 3.]])
    """
    shape = tuple(int(s) for s in size)
    steps = tuple(int(s) for s in stride)
    if len(shape) != len(steps):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in steps):
        raise RuntimeError(
            f"as_strided: Negative strides are not supported at the moment, got strides: "
            f"{list(steps)}"
        )
    a = self._d
    item = a.itemsize
    root = _memory(a)
    here = self.storage_offset()
    off = here if storage_offset is None else int(storage_offset)
    need = 0 if 0 in shape else off + sum((n - 1) * s for n, s in zip(shape, steps)) + 1
    if need > root.size:
        raise RuntimeError(
            f"setStorage: sizes {list(shape)}, strides {list(steps)}, storage offset {off}, and "
            f"itemsize {item} requiring a storage size of {need * item} are out of bounds for "
            f"storage of size {root.size * item}"
        )
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


OPS = [
    Op("as_strided", as_strided),
]
