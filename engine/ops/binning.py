"""Values into bins: searchsorted, bucketize (insertion indices), bincount and histc
(counts) and histogram; integer results or PyTorch's NotImplemented node: not
differentiable."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.ops._core import as_tensor
from engine.ops.table import Op


def _t(a: Any) -> Tensor:
    return make(np.asarray(a), False, None, 0)


def _i64(a: Any) -> Tensor:
    return _t(np.asarray(a, np.int64))


def searchsorted(
    sorted_sequence: Tensor, input: Any, *, out_int32: bool = False, right: bool = False,
    side: str | None = None, sorter: Any = None,
) -> Tensor:  # fmt: skip
    """Insertion indices into the innermost dim of `sorted_sequence`."""
    seq, x = sorted_sequence._d, as_tensor(input)._d
    how: Any = side if side is not None else ("right" if right else "left")
    if seq.ndim <= 1:
        idx = np.searchsorted(seq, x, side=how)
    else:
        flat = zip(seq.reshape(-1, seq.shape[-1]), x.reshape(-1, x.shape[-1]), strict=True)
        rows = [np.searchsorted(s, v, side=how) for s, v in flat]
        idx = np.stack(rows).reshape(x.shape)
    return _t(np.asarray(idx, np.int32 if out_int32 else np.int64))


def bucketize(
    input: Any, boundaries: Tensor, *, out_int32: bool = False, right: bool = False
) -> Tensor:
    """Bucket index of each value; `right=False` means boundaries[i-1] < x <= boundaries[i]."""
    x = as_tensor(input)._d
    idx = np.searchsorted(boundaries._d, x, side="right" if right else "left")
    return _t(np.asarray(idx, np.int32 if out_int32 else np.int64))


def bincount(self: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    a = self._d
    if a.ndim != 1 or _dtype.kind(a.dtype) not in "iu":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if a.size and a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return _i64(np.bincount(a, minlength=minlength))
    w = weights._d
    out = np.bincount(a, weights=w, minlength=minlength)
    return _t(out.astype(w.dtype if _dtype.kind(w.dtype) == "f" else np.float64))


def histc(self: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """Equal-width histogram over [min, max] (the data's range when both are 0)."""
    a = self._d
    lo, hi = float(min), float(max)
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    inside = a[(a >= lo) & (a <= hi)]
    counts, _ = np.histogram(inside, bins=bins, range=(lo, hi))
    return _t(counts.astype(a.dtype))


def histogram(
    self: Tensor,
    bins: Any = 100,
    *,
    range: Any = None,
    weight: Tensor | None = None,
    density: bool = False,
) -> Any:
    """(hist, bin_edges): counts (or summed weights) in `bins` equal-width bins over `range`
    (the data's), or in the bins a tensor of edges gives; the last edge is inclusive."""
    from engine import return_types
    from engine.ops.remainder import not_implemented_node

    a = self._d
    if _dtype.kind(a.dtype) != "f":
        raise NotImplementedError(
            f"\"histogramdd\" not implemented for '{_dtype.SCALAR_NAMES[a.dtype.name]}'"
        )
    flat = a.reshape(-1)
    w = None if weight is None else weight._d.reshape(-1)
    pos, inside, edges = _bin_positions(flat, bins, range, a.dtype)
    n = edges.size - 1
    hist = np.zeros(n, a.dtype)
    np.add.at(hist, pos[inside], 1 if w is None else w[inside].astype(a.dtype))
    if density:
        hist = (hist / (hist.sum() * np.diff(edges))).astype(a.dtype)
    inputs = (self,) if weight is None else (self, weight)
    h = not_implemented_node(hist, inputs, "histogram")
    e = not_implemented_node(np.asarray(edges, a.dtype), inputs, "histogram")
    return return_types.histogram((h, e))


def _bin_positions(flat: Any, bins: Any, range: Any, dtype: Any) -> tuple[Any, Any, Any]:
    """(bin of each value, whether it falls inside, the edges) for `bins` equal-width bins over
    `range` (the values' own when None), or the edges a tensor gives; the last edge is
    inclusive. ATen's linear interpolation, then a local search against the edges."""
    from engine._creation import _linspace

    dt = np.dtype(dtype).type
    if isinstance(bins, Tensor):
        edges = bins._d.astype(dtype)
        n = edges.size - 1
        inside = (flat >= edges[0]) & (flat <= edges[-1])
        pos = np.searchsorted(edges, flat, side="right") - 1
    else:
        n = int(bins)
        if range is not None:
            lo, hi = dt(range[0]), dt(range[1])
        elif flat.size:
            lo, hi = flat.min(), flat.max()
        else:
            lo, hi = dt(0), dt(0)
        if lo == hi:
            lo, hi = lo - dt(0.5), hi + dt(0.5)
        edges = _linspace(lo, hi, n + 1, dtype)
        inside = (flat >= lo) & (flat <= hi)
        pos = ((flat - lo) * dt(n) / (hi - lo)).astype(np.int64)
        pos = np.clip(pos, 0, n)
        pos = np.where(flat < edges[pos], pos - 1, pos)
        nxt = np.clip(pos + 1, 0, n)
        pos = np.where((pos + 1 <= n) & (flat >= edges[nxt]), pos + 1, pos)
    pos = np.where(pos == n, n - 1, pos)  # the last bin holds its right edge
    return pos, inside, np.asarray(edges, dtype)


def histogramdd(
    input: Tensor,
    bins: Any = 10,
    *,
    range: Any = None,
    weight: Tensor | None = None,
    density: bool = False,
) -> Any:
    """(hist, bin_edges): the rows of `input` (its last dimension the coordinates) counted, or
    their weights summed, in a grid of bins: `bins` per dimension (one int for all, a list of
    ints, or a list of edge tensors), over `range` (lo0, hi0, lo1, hi1, ...) or the data's."""
    from engine import return_types
    from engine.ops.remainder import not_implemented_node

    a = input._d
    if _dtype.kind(a.dtype) != "f":
        raise NotImplementedError(
            f"\"histogramdd\" not implemented for '{_dtype.SCALAR_NAMES[a.dtype.name]}'"
        )
    k = a.shape[-1]
    points = a.reshape(-1, k)
    per_dim = list(bins) if isinstance(bins, list | tuple) else [bins] * k
    if len(per_dim) != k:
        raise RuntimeError(
            "histogramdd: The size of bins must be equal to the innermost dimension of the input."
        )
    inside = np.ones(points.shape[0], bool)
    positions, all_edges = [], []
    for d, b in enumerate(per_dim):
        r = None if range is None else (range[2 * d], range[2 * d + 1])
        pos, ins, edges = _bin_positions(points[:, d], b, r, a.dtype)
        positions.append(pos)
        inside &= ins
        all_edges.append(edges)
    shape = tuple(e.size - 1 for e in all_edges)
    hist = np.zeros(shape, a.dtype)
    w = None if weight is None else weight._d.reshape(-1)[inside].astype(a.dtype)
    np.add.at(hist, tuple(p[inside] for p in positions), 1 if w is None else w)
    if density:
        volume = functools.reduce(np.multiply.outer, [np.diff(e) for e in all_edges])
        hist = (hist / (hist.sum() * volume)).astype(a.dtype)
    inputs = (input,) if weight is None else (input, weight)
    h = not_implemented_node(hist, inputs, "histogramdd")
    edges_t = tuple(not_implemented_node(e, inputs, "histogramdd") for e in all_edges)
    return return_types.histogramdd((h, edges_t))


OPS = [
    Op("bincount", bincount),
    Op("histc", histc, out=True),
    Op("histogram", histogram, out=True),
    Op("histogramdd", histogramdd, method=False),
    Op("searchsorted", searchsorted, method=False, out=True),
    Op("bucketize", bucketize, method=False, out=True),
]
