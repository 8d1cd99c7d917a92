"""Floating-point sums added in ATen's order, so that `loss.item()` prints PyTorch's digits.

A float32 sum rounds after every addition, so its last bits depend on the order the additions
take. NumPy sums pairwise; ATen's CPU kernel (`cascade_sum`, aten/src/ATen/native/cpu/
SumKernel.cpp) loads vectors of W lanes (8 floats or 4 doubles under AVX2, the build PyTorch's
wheels dispatch to on these machines), keeps 4 vectors of partial sums side by side, carries
them up 4 levels of a cascade every 16 (or more) steps, and adds a row's tail and the lanes at
the end. This module adds in that order.

It covers what one thread sums: real float32/float64, C-contiguous, at most GRAIN_SIZE
elements (beyond that ATen splits the work among its threads, and the order depends on how many
there are), reduced over leading or trailing dims (the layouts TensorIterator coalesces into
one reduced and one kept dim). `add_reduce` answers None for anything else; the caller sums as
before.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

# at::internal::GRAIN_SIZE: below it a reduction runs on one thread
GRAIN_SIZE = 32768
# lanes of one vector load: Vectorized<float> / Vectorized<double> under AVX2
_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_ILP = 4  # partial sums kept side by side (row_sum's ilp_factor, multi_row_sum's nrows)
_LEVELS = 4

Array = np.ndarray[Any, Any]


def add_reduce(a: Array, axes: tuple[int, ...], keepdim: bool) -> Array | None:
    """The sum of `a` over `axes` (sorted, non-negative), added in ATen's order; None when
    `a` is not a layout this module covers."""
    lanes = _LANES.get(a.dtype)
    if lanes is None or not 0 < a.size <= GRAIN_SIZE or not a.flags.c_contiguous:
        return None
    plan = _plan(a.shape, axes, keepdim)
    if plan is None:
        return None
    how, head, out_shape = plan
    if how == "copy":  # only dims of size 1 are reduced: not a true reduction
        return (np.zeros((), a.dtype) + a).reshape(out_shape)
    sum_rows = inner_sum if how == "inner" else outer_sum
    return sum_rows(a.reshape(head, -1), lanes).reshape(out_shape)


# (how, rows, output shape) per layout: the analysis costs more than a small sum itself
Plan = tuple[str, int, tuple[int, ...]]


@functools.lru_cache(maxsize=1024)
def _plan(shape: tuple[int, ...], axes: tuple[int, ...], keepdim: bool) -> Plan | None:
    """How `add_reduce` sums this layout: "inner" (each of `rows` rows sums its contiguous
    tail), "outer" (the rows are added column by column) or "copy"; None if not covered."""
    if len(axes) == len(shape):  # every dim
        return "inner", 1, (1,) * len(shape) if keepdim else ()
    kept = [(1 if i in axes else n) for i, n in enumerate(shape) if keepdim or i not in axes]
    out_shape = tuple(kept)
    # dims of size 1 take no part; what is left must be reduced dims then kept ones, or the reverse
    kinds = [i in axes for i, n in enumerate(shape) if n != 1]
    cut = next((k for k in range(1, len(kinds)) if kinds[k] != kinds[0]), len(kinds))
    if any(kinds[k] == kinds[0] for k in range(cut, len(kinds))):
        return None
    if not any(kinds):
        return "copy", 0, out_shape
    head = math.prod([n for n in shape if n != 1][:cut])
    if not kinds[0]:  # kept dims first: each row sums its contiguous tail
        return "inner", head, out_shape
    if cut == len(kinds):  # every dim reduced
        return "inner", 1, out_shape
    return "outer", head, out_shape


def inner_sum(a: Array, lanes: int) -> Array:
    """Each row of a C-contiguous (rows, n) array summed (vectorized_inner_sum when a row holds
    a vector, else scalar_inner_sum)."""
    if a.shape[1] < _SHORT * lanes:
        return _short_inner_sum(a, lanes)
    return row_sums(a, lanes)


def row_sums(a: Array, lanes: int) -> Array:
    """`inner_sum` step by step, as the kernel goes (any row length)."""
    rows, n = a.shape
    if n < lanes:
        acc = _row_sum(a.reshape(rows, n, 1))[:, 0]
    else:
        whole = n // lanes * lanes
        vec = _row_sum(a[:, :whole].reshape(rows, -1, lanes))
        acc = _in_turn(np.zeros((rows, 1), a.dtype), a[:, whole:], vec)  # the tail, the lanes
    return np.zeros(rows, a.dtype) + acc  # stored into a zero-filled output


# rows of fewer than _SHORT vectors (or _SHORT scalars) never reach multi_row_sum's cascade
_SHORT = 8


def _short_inner_sum(a: Array, lanes: int) -> Array:
    """`inner_sum` of rows shorter than 8 vectors (the common small sum), in its order with
    fewer steps: each lane adds the row's groups in `_short_order`, then the tail and the
    lanes follow in turn (scalars are groups of one, with no lanes to add)."""
    rows, n = a.shape
    if n < lanes:
        acc = np.add.accumulate(a[:, _short_order(n)], axis=1)[:, -1]
    else:
        m = n // lanes
        groups = a[:, : m * lanes].reshape(rows, m, lanes)[:, _short_order(m)]
        vec = np.add.accumulate(groups, axis=1)[:, -1]
        acc = _in_turn(a[:, m * lanes :], vec)
    # row_sum's zeros (the empty partial sums, the start of the tail) only turn -0 into +0,
    # as adding the zero-filled output does
    return np.zeros(rows, a.dtype) + acc


@functools.lru_cache(maxsize=64)
def _short_order(m: int) -> Array:
    """The order row_sum adds m < 8 groups in: with 4 or more, multi_row_sum's 4 partial sums
    are the first 4 groups, the leftover groups run into the first, then the other 3 follow."""
    order = np.array(list(range(m)) if m < 4 else [0, *range(4, m), 1, 2, 3], np.intp)
    order.flags.writeable = False  # shared by every call
    return order


def outer_sum(a: Array, lanes: int) -> Array:
    """The columns of a C-contiguous (n, cols) array summed (vectorized_outer_sum when a row
    holds a vector, else scalar_outer_sum): groups of 4 vectors, then single vectors, then
    single columns, each group in its own order."""
    cols = a.shape[1]
    out = np.empty(cols, a.dtype)
    j = 0
    width = lanes if cols >= lanes else 1
    while j + _ILP * width <= cols:
        out[j : j + _ILP * width] = _multi_row(a[None, :, j : j + _ILP * width])[0]
        j += _ILP * width
    while width > 1 and j + width <= cols:
        out[j : j + width] = _row_sum(a[None, :, j : j + width])[0]
        j += width
    while j < cols:
        out[j] = _row_sum(a[None, :, j : j + 1])[0, 0]
        j += 1
    return np.zeros(cols, a.dtype) + out


def _row_sum(x: Array) -> Array:
    """row_sum: x is (rows, m, w), m groups of w lanes per row; the groups are read as (-1, 4),
    the 4 columns summed side by side, then the leftover groups into the first, then the 4
    added together. (rows, w)."""
    rows, m, w = x.shape
    size = m // _ILP
    parts = _multi_row(x[:, : size * _ILP].reshape(rows, size, _ILP * w)).reshape(rows, _ILP, w)
    acc = _in_turn(parts[:, :1], x[:, size * _ILP :], parts[:, 1:])
    return acc


def _multi_row(x: Array) -> Array:
    """multi_row_sum: x is (rows, size, lanes); each lane adds `size` values in blocks of
    `step`, a block's sum carried into the cascade's next level (and on, at every power of
    `step`); the levels are added at the end. (rows, lanes)."""
    rows, size, lanes = x.shape
    power = max(4, _ceil_log2(size) // _LEVELS)
    step = 1 << power
    blocks = size // step
    if not blocks:  # a running sum (from the first value, not 0 + it: only a zero's sign differs,
        # and the zero-filled output a sum is stored into makes every zero +0)
        return np.add.accumulate(x, axis=1)[:, -1] if size else np.zeros((rows, lanes), x.dtype)
    zero = np.zeros((rows, lanes), x.dtype)
    acc = [zero] * _LEVELS
    # within a block the adds are sequential: a reduction over a non-innermost axis is
    sums = np.add.reduce(x[:, : blocks * step].reshape(rows, blocks, step, lanes), axis=2)
    for b in range(blocks):
        acc[0] = sums[:, b]
        done = (b + 1) * step
        for j in range(1, _LEVELS):
            acc[j] = acc[j] + acc[j - 1]
            acc[j - 1] = zero
            if done & ((step - 1) << (j * power)):
                break
    levels = [level[:, None] for level in acc[1:]]
    return _in_turn(acc[0][:, None], x[:, blocks * step :], *levels)


def _in_turn(*parts: Array) -> Array:
    """Sequential sums along axis 1 of the parts laid end to end (rows, k, ...), one rounding
    per addition and in that order: a running sum (NumPy's reductions may sum pairwise)."""
    return np.add.accumulate(np.concatenate(parts, axis=1), axis=1)[:, -1]


def _ceil_log2(n: int) -> int:
    return 0 if n <= 1 else (n - 1).bit_length()
