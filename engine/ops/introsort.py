"""The order PyTorch's unstable CPU sort leaves ties in: ATen sorts (value, index) pairs with
`std::sort`, and libstdc++'s `std::sort` is an introsort (median-of-three quicksort down to
slices of 16, heapsort past a depth limit, then one insertion sort). Equal values therefore
come out in that algorithm's order (`torch.tensor([0, 1] * 9).sort()` puts index 2 first),
which is reproduced here step for step. Without ties every correct sort gives the same order,
so only slices with ties (and at most `LIMIT` elements: this runs in Python) take this path.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

LIMIT = 1 << 16
_THRESHOLD = 16  # libstdc++'s _S_threshold


def _comparator(vals: list[Any], descending: bool) -> Callable[[int, int], bool]:
    """ATen's KeyValueCompAsc / KeyValueCompDesc (NaN sorts as the largest value)."""
    if descending:

        def comp(i: int, j: int) -> bool:
            a, b = vals[i], vals[j]
            return bool((a != a and b == b) or a > b)

    else:

        def comp(i: int, j: int) -> bool:
            a, b = vals[i], vals[j]
            return bool((a == a and b != b) or a < b)

    return comp


def _heap_sort(p: list[int], first: int, last: int, c: Callable[[int, int], bool]) -> None:
    """std::partial_sort(first, last, last): make_heap then sort_heap, as libstdc++ writes them."""
    seg = p[first:last]
    n = len(seg)

    def adjust(hole: int, length: int, value: int) -> None:
        top = second = hole
        while second < (length - 1) // 2:
            second = 2 * (second + 1)
            if c(seg[second], seg[second - 1]):
                second -= 1
            seg[hole] = seg[second]
            hole = second
        if (length & 1) == 0 and second == (length - 2) // 2:
            second = 2 * (second + 1)
            seg[hole] = seg[second - 1]
            hole = second - 1
        parent = (hole - 1) // 2
        while hole > top and c(seg[parent], value):
            seg[hole] = seg[parent]
            hole = parent
            parent = (hole - 1) // 2
        seg[hole] = value

    if n >= 2:
        for parent in range((n - 2) // 2, -1, -1):
            adjust(parent, n, seg[parent])
    for end in range(n - 1, 0, -1):
        value = seg[end]
        seg[end] = seg[0]
        adjust(0, end, value)
    p[first:last] = seg


def std_sort_order(vals: list[Any], descending: bool) -> list[int]:
    """The permutation libstdc++'s std::sort leaves `vals`' (value, index) pairs in."""
    comp = _comparator(vals, descending)
    p = list(range(len(vals)))

    def c(x: int, y: int) -> bool:
        return comp(x, y)

    def swap(i: int, j: int) -> None:
        p[i], p[j] = p[j], p[i]

    def median_to_first(result: int, a: int, b: int, cc: int) -> None:
        if c(p[a], p[b]):
            if c(p[b], p[cc]):
                swap(result, b)
            elif c(p[a], p[cc]):
                swap(result, cc)
            else:
                swap(result, a)
        elif c(p[a], p[cc]):
            swap(result, a)
        elif c(p[b], p[cc]):
            swap(result, cc)
        else:
            swap(result, b)

    def partition(first: int, last: int, pivot: int) -> int:
        while True:
            while c(p[first], p[pivot]):
                first += 1
            last -= 1
            while c(p[pivot], p[last]):
                last -= 1
            if not first < last:
                return first
            swap(first, last)
            first += 1

    def introsort(first: int, last: int, depth: int) -> None:
        while last - first > _THRESHOLD:
            if depth == 0:
                _heap_sort(p, first, last, c)
                return
            depth -= 1
            median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
            cut = partition(first + 1, last, first)
            introsort(cut, last, depth)
            last = cut

    def insertion(first: int, last: int) -> None:
        for i in range(first + 1, last):
            val = p[i]
            if c(val, p[first]):
                p[first + 1 : i + 1] = p[first:i]
                p[first] = val
            else:
                unguarded(i)

    def unguarded(i: int) -> None:
        val = p[i]
        j = i
        while c(val, p[j - 1]):
            p[j] = p[j - 1]
            j -= 1
        p[j] = val

    n = len(p)
    if n > 1:
        introsort(0, n, 2 * math.floor(math.log2(n)))
        if n > _THRESHOLD:
            insertion(0, _THRESHOLD)
            for i in range(_THRESHOLD, n):
                unguarded(i)
        else:
            insertion(0, n)
    return p


def _has_ties(sorted_vals: np.ndarray[Any, Any], d: int) -> bool:
    lo = np.take(sorted_vals, np.arange(sorted_vals.shape[d] - 1), axis=d)
    hi = np.take(sorted_vals, np.arange(1, sorted_vals.shape[d]), axis=d)
    same = lo == hi
    if sorted_vals.dtype.kind in "fc":
        same |= np.isnan(lo) & np.isnan(hi)
    return bool(same.any())


def unstable_argsort(
    a: np.ndarray[Any, Any], d: int, stable_order: np.ndarray[Any, Any], descending: bool
) -> np.ndarray[Any, Any]:
    """PyTorch's order for `sort(stable=False)`: `stable_order` unless `a` has ties."""
    if a.size > LIMIT or a.shape[d] <= 1:
        return stable_order
    if not _has_ties(np.take_along_axis(a, stable_order, d), d):
        return stable_order
    moved = np.moveaxis(a, d, -1)
    out = np.empty(moved.shape, np.int64)
    for idx in np.ndindex(moved.shape[:-1]):
        out[idx] = std_sort_order(moved[idx].tolist(), descending)
    return np.moveaxis(out, -1, d)
