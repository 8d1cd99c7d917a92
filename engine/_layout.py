"""`torch.layout` and `torch.memory_format`: the named constants PyTorch exposes
(`torch.strided`, `torch.channels_last`, ...), printed as PyTorch prints them.

>>> torch.zeros(1, 3, 4, 4).contiguous(memory_format=torch.channels_last).stride()
(48, 1, 12, 3)
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


class layout:
    """How a tensor's elements are stored; the engine's are all `torch.strided`."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name


class memory_format:
    """The order of a tensor's dimensions in memory (strides), as `contiguous` and `to` take."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
_mkldnn = layout("_mkldnn")
jagged = layout("jagged")

contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")


def lapack(a: Array) -> Array:
    """`a` with each matrix stored column by column, batches outermost: the layout LAPACK
    writes and PyTorch keeps for the matrices its solvers and factorizations return
    (`torch.linalg.inv(A).stride()` is (1, n)), so views and reshapes of them behave alike."""
    if a.ndim < 2:
        return a
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)


# the order of dimensions in memory, outermost first, of the formats that reorder them
_ORDER = {"channels_last": (0, 2, 3, 1), "channels_last_3d": (0, 2, 3, 4, 1)}
_RANK = {"channels_last": 4, "channels_last_3d": 5}


def check_rank(fmt: memory_format, ndim: int) -> None:
    """ATen's refusal to lay out a tensor of the wrong rank in a channels-last format."""
    rank = _RANK.get(fmt.name)
    if rank is not None and ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt.name} format")


def is_in(a: Array, fmt: memory_format | None) -> bool:
    """`Tensor.is_contiguous(memory_format=fmt)`: strides dense in that order (dims of size 1
    may have any stride, as in ATen's check)."""
    order = _ORDER.get(fmt.name) if fmt is not None else None
    if order is None:
        return bool(a.flags.c_contiguous)
    if a.ndim != len(order):
        return False
    expected = a.itemsize
    for d in reversed(order):
        if a.shape[d] != 1:
            if a.strides[d] != expected:
                return False
            expected *= a.shape[d]
    return True


def dense_order(shape: tuple[int, ...], strides: tuple[int, ...]) -> list[int]:
    """ATen's `infer_dense_strides` as an order of dims, outermost first: an insertion sort by
    stride in which a zero stride (a broadcast dim) compares with nothing."""
    perm = list(range(len(shape)))[::-1]  # innermost first

    def should_swap(d0: int, d1: int) -> int:
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return 1 if s0 > s1 else -1
        return 1 if shape[d0] > shape[d1] else 0

    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm[::-1]


def laid_out(a: Array, fmt: memory_format | None) -> Array:
    """A copy of `a` in `fmt` (`preserve_format`: in `a`'s own order of strides)."""
    if fmt is None or fmt.name == "contiguous_format":
        return np.array(a, order="C", copy=True)
    if fmt.name == "preserve_format":  # strides in the order of a's (ATen's empty_like)
        kept = a.copy(order="K")
        if kept.strides == a.strides:
            return kept
        perm = dense_order(a.shape, a.strides)
        return np.ascontiguousarray(a.transpose(perm)).transpose(np.argsort(perm))
    check_rank(fmt, a.ndim)
    order = _ORDER[fmt.name]
    dense = np.ascontiguousarray(a.transpose(order))
    out: Array = dense.transpose(np.argsort(order))
    return out
