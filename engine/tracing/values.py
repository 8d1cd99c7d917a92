"""Tensor values on the wire: small arrays inline, large ones as stats, histogram and sample."""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np
import orjson

INLINE_LIMIT = 64
SAMPLE = 16
BINS = 16
HIST_SAMPLE = 4096


def _finite(x: Any) -> Any:
    # JSON has no NaN/Infinity: non-finite floats travel as the strings "nan", "inf", "-inf"
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    if isinstance(x, list):
        return [_finite(v) for v in x]
    return x


_BFLOAT16 = np.dtype(ml_dtypes.bfloat16)


def _widened(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """bfloat16 (a NumPy "void" kind to NumPy) as float32, exactly: its values, NaN/inf counts
    and stats are then those of any float (orjson and NumPy's reductions do not know it)."""
    return a.astype(np.float32) if a.dtype.kind == "V" and a.dtype == _BFLOAT16 else a


_NAMES: dict[np.dtype[Any], str] = {}
_isfinite = math.isfinite


def dtype_name(dt: np.dtype[Any]) -> str:
    """`float32`, ... (numpy computes `dtype.name` in Python each time: cache it)."""
    name = _NAMES.get(dt)
    if name is None:
        name = _NAMES[dt] = dt.name
    return name


_NUMPY = orjson.OPT_SERIALIZE_NUMPY
_dumps, _loads = orjson.dumps, orjson.loads


def _short(a: np.ndarray[Any, Any]) -> tuple[Any, bool]:
    """A float32 (or float16) array's values as the shortest decimals that give back the same
    float32 (`0.50005`, where `tolist()` gives float64's `0.5000500082969666`), and whether
    all are finite: about half the bytes, the same number once read back at the tensor's
    precision. orjson writes them so straight from the array (a C-contiguous one); a value
    JSON cannot hold (NaN, ±inf) comes back as None, and is put in as a string here."""
    if a.ndim == 0:
        short = _loads(_dumps(a[()], option=_NUMPY))
        finite = short is not None
    else:
        c = a if a.flags.c_contiguous else np.ascontiguousarray(a)
        short = _loads(_dumps(c, option=_NUMPY))
        finite = None not in short if a.ndim == 1 else bool(np.isfinite(a).all())
    return (short, True) if finite else (_patch(short, _finite(a.tolist())), False)


def _patch(short: Any, full: Any) -> Any:
    # orjson writes a non-finite float as null: the string of `full` goes there instead
    if isinstance(short, list):
        return [_patch(s, f) for s, f in zip(short, full, strict=True)]
    return full if short is None else short


def plain(a: np.ndarray[Any, Any]) -> Any:
    """An array as nested lists, non-finite floats as strings (float32 in its own digits)."""
    a = _widened(a)
    if a.dtype.kind == "f" and a.dtype.itemsize < 8:
        return _short(a)[0]
    out = a.tolist()
    if a.dtype.kind != "f":
        return out if a.dtype.kind != "c" else _complex_strings(a)
    if a.ndim == 0:
        return out if _isfinite(out) else _finite(out)
    if a.ndim == 1:
        return out if all(map(_isfinite, out)) else _finite(out)
    return out if np.isfinite(a).all() else _finite(out)


def inline(a: np.ndarray[Any, Any], out: Any) -> None:
    """Put an array's values into wire value `out` (as `plain`), with `nan`/`inf` counts
    when any element is not finite (NaN and ±Inf are flagged, never silently skipped)."""
    a = _widened(a)
    kind = a.dtype.kind
    if kind == "f" and a.dtype.itemsize < 8:
        vals, finite = _short(a)
    elif kind == "f":
        vals = a.tolist()
        if a.ndim == 0:
            finite = _isfinite(vals)
        elif a.ndim == 1:
            finite = all(map(_isfinite, vals))
        else:
            finite = bool(np.isfinite(a).all())
        if not finite:
            vals = _finite(vals)
    else:
        vals = a.tolist() if kind != "c" else _complex_strings(a)
        finite = True
    if not finite:
        out["nan"] = int(np.count_nonzero(np.isnan(a)))
        out["inf"] = int(np.count_nonzero(np.isinf(a)))
    out["values"] = vals


def _complex_strings(a: np.ndarray[Any, Any]) -> Any:
    # JSON has no complex numbers: "1+2j" strings, as non-finite floats are sent as strings
    return np.vectorize(lambda z: repr(complex(z)).strip("()"), otypes=[object])(a).tolist()


def value(a: np.ndarray[Any, Any], inline_limit: int = INLINE_LIMIT) -> dict[str, Any]:
    """The wire form of an array: inline values, or a summary of a large one."""
    out: dict[str, Any] = {"shape": list(a.shape), "dtype": dtype_name(a.dtype)}
    if a.size <= inline_limit:
        inline(a, out)
        return out
    summarize(a, out)
    return out


def summarize(a: np.ndarray[Any, Any], out: Any) -> None:
    """Add a large array's sample, stats and histogram to `out` (NumPy releases the GIL in the
    passes over the data, so two threads can summarize two arrays at once)."""
    flat = _widened(a).reshape(-1)
    out["sample"] = plain(flat[:SAMPLE])
    kind = flat.dtype.kind
    if kind not in "fiub":
        return
    lo, hi = float(_min(flat)), float(_max(flat))
    good = flat
    out["nan"] = out["inf"] = 0
    if kind == "f" and not (_isfinite(lo) and _isfinite(hi)):
        # min/max are finite only when every element is: pay for the mask only otherwise
        finite = np.isfinite(flat)
        good = flat[finite]
        out["nan"] = int(np.count_nonzero(np.isnan(flat)))
        out["inf"] = flat.size - good.size - out["nan"]
        if good.size:
            lo, hi = float(good.min()), float(good.max())
    if good.size:
        mean, std = _moments(good)
        # the histogram counts an evenly strided sample of at most HIST_SAMPLE elements
        step = max(1, good.size // HIST_SAMPLE)
        counts, edges = _histogram(good[::step], lo, hi)
        out["stats"] = {"min": lo, "max": hi, "mean": mean, "std": std}
        out["hist"] = {"edges": edges, "counts": counts}


def summarize_all(jobs: list[tuple[np.ndarray[Any, Any], Any]]) -> None:
    """Summarize every (array, value dict) pair."""
    for a, out in jobs:
        summarize(a, out)


_F32 = np.dtype(np.float32)
_F32_MAX = float(np.finfo(np.float32).max)


def _in_f32(lo: float, hi: float) -> bool:
    """Whether a histogram's lo, scale and differences are finite in float32."""
    span = hi - lo
    return abs(lo) < _F32_MAX and span < _F32_MAX and span * _F32_MAX > BINS


_min, _max = np.minimum.reduce, np.maximum.reduce
_ONES: dict[np.dtype[Any], np.ndarray[Any, Any]] = {}


def _ones(n: int, dt: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """n ones of dtype `dt`, from a cached vector (a sum as a BLAS dot is twice as fast)."""
    ones = _ONES.get(dt)
    if ones is None or ones.size < n:
        ones = _ONES[dt] = np.ones(max(n, 1 << 16), dt)
    return ones[:n]


def _sum(x: np.ndarray[Any, Any]) -> float:
    """The sum as BLAS products with ones: a matrix-vector product over rows of 1024 reads the
    data once (a dot with a ones vector as long as the data reads twice as much)."""
    n = x.size
    rows = n >> 10
    if rows < 4 or not x.flags.c_contiguous:
        return float(np.dot(x, _ones(n, x.dtype)))
    body = n - (rows << 10)
    total = float(np.dot(x[body:].reshape(rows, 1024), _ones(1024, x.dtype)).sum())
    return total + float(np.dot(x[:body], _ones(body, x.dtype))) if body else total


def _moments(x: np.ndarray[Any, Any]) -> tuple[float, float]:
    """Mean and sample standard deviation, in two BLAS passes (display precision)."""
    n = x.size
    if x.dtype.kind != "f" or x.dtype.itemsize < 4:
        x = x.astype(np.float64)
    mean = _sum(x) / n
    if n < 2:
        return mean, 0.0
    var = (float(np.dot(x, x)) - n * mean * mean) / (n - 1)
    if var < 1e-5 * mean * mean:
        # E[x^2] - mean^2 cancels when the spread is tiny next to the mean: the exact way
        d = x - x.dtype.type(mean)
        var = float(np.dot(d, d)) / (n - 1)
    return mean, math.sqrt(max(0.0, var))


def _histogram(x: np.ndarray[Any, Any], lo: float, hi: float) -> tuple[list[int], list[float]]:
    """BINS equal bins over [lo, hi] (np.histogram's result, without its overhead)."""
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5  # np.histogram's range for a constant array
    scale = BINS / (hi - lo)
    if x.dtype == _F32 and not _in_f32(lo, hi):
        # a span too small (subnormal values) or too large for the array's precision: its
        # scale or its differences would overflow (inf, then a negative bin): in float64
        x = x.astype(np.float64)
    idx = ((x - lo) * scale).astype(np.intp)
    # x >= lo, so only the top needs clamping (x == hi lands in the last bin, as in
    # np.histogram); np.minimum costs 1 us where np.clip's Python wrapper costs 14
    np.minimum(idx, BINS - 1, out=idx)
    counts = np.bincount(idx, minlength=BINS).tolist()
    width = hi - lo
    return counts, [lo + width * f for f in _FRACTIONS]


_FRACTIONS = [i / BINS for i in range(BINS + 1)]


def clean(x: Any) -> Any:
    """`x` with every string made encodable as UTF-8 (lone surrogates become `?`)."""
    if isinstance(x, str):
        return x.encode("utf-8", "replace").decode("utf-8") if not x.isascii() else x
    if isinstance(x, dict):
        return {clean(k): clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [clean(v) for v in x]
    return x
