"""The order PyTorch's CPU sort and topk leave ties in: ATen sorts and selects (value, index)
pairs with libstdc++'s `std::sort` (an introsort: median-of-three quicksort down to slices of
16, heapsort past a depth limit, then one insertion sort), `std::nth_element` (introselect) and
`std::partial_sort` (heap select, then sort_heap). Equal values therefore come out in those
algorithms' order (`torch.tensor([0, 1] * 9).sort()` puts index 2 first; topk's unsorted
result is nth_element's arrangement), which is reproduced here step for step. Where every
correct algorithm gives the same answer (no ties), callers keep NumPy's fast order; the
emulation runs in Python, on at most `LIMIT` elements.
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


class _Std:
    """libstdc++'s sorting algorithms over a permutation `p` of indices into the values."""

    def __init__(self, vals: list[Any], descending: bool) -> None:
        self.c = _comparator(vals, descending)
        self.p = list(range(len(vals)))

    def _swap(self, i: int, j: int) -> None:
        p = self.p
        p[i], p[j] = p[j], p[i]

    # -- heap (relative to `first`) ----------------------------------------------------
    def _adjust(self, first: int, hole: int, length: int, value: int) -> None:
        p, c = self.p, self.c
        top = second = hole
        while second < (length - 1) // 2:
            second = 2 * (second + 1)
            if c(p[first + second], p[first + second - 1]):
                second -= 1
            p[first + hole] = p[first + second]
            hole = second
        if (length & 1) == 0 and second == (length - 2) // 2:
            second = 2 * (second + 1)
            p[first + hole] = p[first + second - 1]
            hole = second - 1
        parent = (hole - 1) // 2
        while hole > top and c(p[first + parent], value):
            p[first + hole] = p[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        p[first + hole] = value

    def _make_heap(self, first: int, last: int) -> None:
        n = last - first
        if n >= 2:
            for parent in range((n - 2) // 2, -1, -1):
                self._adjust(first, parent, n, self.p[first + parent])

    def _pop_heap(self, first: int, last: int, result: int) -> None:
        value = self.p[result]
        self.p[result] = self.p[first]
        self._adjust(first, 0, last - first, value)

    def _heap_select(self, first: int, middle: int, last: int) -> None:
        self._make_heap(first, middle)
        for i in range(middle, last):
            if self.c(self.p[i], self.p[first]):
                self._pop_heap(first, middle, i)

    def _sort_heap(self, first: int, last: int) -> None:
        while last - first > 1:
            last -= 1
            self._pop_heap(first, last, last)

    def partial_sort(self, first: int, middle: int, last: int) -> None:
        self._heap_select(first, middle, last)
        self._sort_heap(first, middle)

    # -- quicksort parts -----------------------------------------------------------------
    def _median_to_first(self, result: int, a: int, b: int, cc: int) -> None:
        p, c = self.p, self.c
        if c(p[a], p[b]):
            if c(p[b], p[cc]):
                self._swap(result, b)
            elif c(p[a], p[cc]):
                self._swap(result, cc)
            else:
                self._swap(result, a)
        elif c(p[a], p[cc]):
            self._swap(result, a)
        elif c(p[b], p[cc]):
            self._swap(result, cc)
        else:
            self._swap(result, b)

    def _partition_pivot(self, first: int, last: int) -> int:
        p, c = self.p, self.c
        self._median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
        pivot, lo, hi = first, first + 1, last
        while True:
            while c(p[lo], p[pivot]):
                lo += 1
            hi -= 1
            while c(p[pivot], p[hi]):
                hi -= 1
            if not lo < hi:
                return lo
            self._swap(lo, hi)
            lo += 1

    def _unguarded(self, i: int) -> None:
        p, c = self.p, self.c
        val = p[i]
        j = i
        while c(val, p[j - 1]):
            p[j] = p[j - 1]
            j -= 1
        p[j] = val

    def _insertion(self, first: int, last: int) -> None:
        p = self.p
        for i in range(first + 1, last):
            val = p[i]
            if self.c(val, p[first]):
                p[first + 1 : i + 1] = p[first:i]
                p[first] = val
            else:
                self._unguarded(i)

    def _introsort(self, first: int, last: int, depth: int) -> None:
        while last - first > _THRESHOLD:
            if depth == 0:
                self.partial_sort(first, last, last)
                return
            depth -= 1
            cut = self._partition_pivot(first, last)
            self._introsort(cut, last, depth)
            last = cut

    # -- the public algorithms -----------------------------------------------------------
    def sort(self, first: int, last: int) -> None:
        n = last - first
        if n <= 1:
            return
        self._introsort(first, last, 2 * math.floor(math.log2(n)))
        if n > _THRESHOLD:
            self._insertion(first, first + _THRESHOLD)
            for i in range(first + _THRESHOLD, last):
                self._unguarded(i)
        else:
            self._insertion(first, last)

    def nth_element(self, first: int, nth: int, last: int) -> None:
        if first == last or nth == last:
            return
        depth = 2 * math.floor(math.log2(last - first))
        while last - first > 3:
            if depth == 0:
                self._heap_select(first, nth + 1, last)
                self._swap(first, nth)
                return
            depth -= 1
            cut = self._partition_pivot(first, last)
            if cut <= nth:
                first = cut
            else:
                last = cut
        self._insertion(first, last)


def std_sort_order(vals: list[Any], descending: bool) -> list[int]:
    """The permutation libstdc++'s std::sort leaves `vals`' (value, index) pairs in."""
    s = _Std(vals, descending)
    s.sort(0, len(vals))
    return s.p


def topk_order(vals: list[Any], k: int, largest: bool, sorted_: bool) -> list[int]:
    """The indices ATen's CPU topk (TopKImpl.h) returns for one slice."""
    n = len(vals)
    s = _Std(vals, largest)
    if k * 64 <= n:
        s.partial_sort(0, k, n)
    else:
        s.nth_element(0, k - 1, n)
        if sorted_:
            s.sort(0, k - 1)
    return s.p[:k]


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


def topk_indices(
    a: np.ndarray[Any, Any],
    d: int,
    k: int,
    stable_order: np.ndarray[Any, Any],
    largest: bool,
    sorted_: bool,
) -> np.ndarray[Any, Any]:
    """ATen's topk indices along `d`; `stable_order` sorts `a` along `d` (NumPy's order).

    Sorted and without ties among the first k + 1 values, every algorithm agrees; otherwise the
    slice takes libstdc++'s path (unsorted results are nth_element's arrangement).
    """
    first = np.take(stable_order, np.arange(k), axis=d)
    if k == 0 or a.size > LIMIT:
        return first
    if sorted_:
        head = np.take(stable_order, np.arange(min(k + 1, a.shape[d])), axis=d)
        if not _has_ties(np.take_along_axis(a, head, d), d):
            return first
    moved = np.moveaxis(a, d, -1)
    out = np.empty((*moved.shape[:-1], k), np.int64)
    for idx in np.ndindex(moved.shape[:-1]):
        out[idx] = topk_order(moved[idx].tolist(), k, largest, sorted_)
    return np.moveaxis(out, -1, d)


def quick_select_index(vals: list[Any], k: int) -> int:
    """The index ATen's kthvalue picks: Sedgewick's quickselect (Sorting.cpp's
    `quick_select_template`, NaN largest) moving (value, index) pairs, 0-based `k`."""
    arr = list(vals)
    ind = list(range(len(vals)))

    def gt(x: Any, y: Any) -> bool:
        return bool((x != x and y == y) or x > y)

    def swap(i: int, j: int) -> None:
        arr[i], arr[j] = arr[j], arr[i]
        ind[i], ind[j] = ind[j], ind[i]

    lo, hi = 0, len(arr) - 1
    while True:
        if hi <= lo:
            return ind[k]
        if hi == lo + 1:
            if gt(arr[lo], arr[hi]):
                swap(lo, hi)
            return ind[k]
        swap((lo + hi) >> 1, lo + 1)
        if gt(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if gt(arr[lo], arr[hi]):
            swap(lo, hi)
        if gt(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j, piv = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while gt(piv, arr[i]):
                i += 1
            j -= 1
            while gt(arr[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def mode_index(vals: list[Any]) -> int:
    """The index ATen's CPU mode returns: after std::sort of (value, index) pairs by value, the
    last pair of the first run of the highest frequency."""
    order = std_sort_order(vals, False)
    best, best_at, run = 0, 0, 0
    for pos, i in enumerate(order):
        run += 1
        if pos == len(order) - 1 or vals[i] != vals[order[pos + 1]]:
            if run > best:
                best, best_at = run, i
            run = 0
    return best_at
