"""`torch.testing`: `assert_close` as PyTorch's docs and tests use it, with its tolerances per
dtype and its failure messages.

>>> import engine as torch
>>> torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor
from engine._warn import warn

# dtype -> (rtol, atol), PyTorch's defaults; other dtypes compare for equality
_TOLERANCES = {
    np.dtype(np.float16): (1e-3, 1e-5),
    _dtype.bfloat16.np: (1.6e-2, 1e-5),
    np.dtype(np.float32): (1.3e-6, 1e-5),
    np.dtype(np.float64): (1e-7, 1e-7),
    np.dtype(np.complex64): (1.3e-6, 1e-5),
    np.dtype(np.complex128): (1e-7, 1e-7),
}

Msg = str | Callable[[str], str] | None


class _Mismatch(Exception):
    """A failed comparison: the exception type PyTorch raises and its message."""

    def __init__(self, kind: type[Exception], message: str) -> None:
        super().__init__(message)
        self.kind, self.message = kind, message


def _diff_line(kind: str, diff: Any, idx: Any, tol: float, equality: bool) -> str:
    msg = (
        f"{kind.title()} difference: {diff}"
        if idx is None
        else (f"Greatest {kind} difference: {diff} at index {idx}")
    )
    return msg + ("" if equality else f" (up to {tol} allowed)") + "\n"


def _mismatch_msg(
    identifier: str,
    extra: str,
    abs_diff: Any,
    abs_idx: Any,
    rel_diff: Any,
    rel_idx: Any,
    rtol: float,
    atol: float,
) -> str:
    equality = rtol == 0 and atol == 0
    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    msg += _diff_line("absolute", abs_diff, abs_idx, atol, equality)
    msg += _diff_line("relative", rel_diff, rel_idx, rtol, equality)
    return msg.strip()


def _scalar_msg(actual: Any, expected: Any, rtol: float, atol: float) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    extra = f"Expected {expected} but got {actual}."
    return _mismatch_msg("Scalars", extra, abs_diff, None, rel_diff, None, rtol, atol)


def _close(a: Any, b: Any, rtol: float, atol: float, equal_nan: bool) -> Any:
    with np.errstate(invalid="ignore", over="ignore"):
        return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _tolerances(
    dtype: np.dtype[Any], rtol: float | None, atol: float | None
) -> tuple[float, float]:
    if rtol is not None and atol is not None:
        return rtol, atol
    return _TOLERANCES.get(dtype, (0.0, 0.0))


def _compare_tensors(
    actual: Tensor,
    expected: Tensor,
    rtol: float | None,
    atol: float | None,
    equal_nan: bool,
    check_dtype: bool,
) -> None:
    if actual.shape != expected.shape:
        raise _Mismatch(
            AssertionError,
            f"The values for attribute 'shape' do not match: {actual.shape} != {expected.shape}.",
        )
    if check_dtype and actual.dtype != expected.dtype:
        raise _Mismatch(
            AssertionError,
            f"The values for attribute 'dtype' do not match: {actual.dtype} != {expected.dtype}.",
        )
    a, b = actual._d, expected._d
    if a.dtype != b.dtype:
        common = np.result_type(a.dtype, b.dtype)
        a, b = a.astype(common), b.astype(common)
    rt, at = _tolerances(a.dtype, rtol, atol)
    if _dtype.kind(a.dtype) == "b":
        matches = a == b
    else:
        matches = _close(a, b, rt, at, equal_nan)
    if np.all(matches):
        return
    if a.ndim == 0:
        raise _Mismatch(AssertionError, _scalar_msg(a.item(), b.item(), rt, at))
    n = matches.size
    wrong = n - int(np.sum(matches))
    extra = f"Mismatched elements: {wrong} / {n} ({wrong / n:.1%})"
    af, bf, mf = a.reshape(-1), b.reshape(-1), matches.reshape(-1)
    if _dtype.kind(a.dtype) not in "fc":
        af, bf = af.astype(np.int64), bf.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        abs_diff = np.abs(af - bf)
        abs_diff[mf] = 0
        real = _dtype.kind(a.dtype) in "fc"
        rel_diff = abs_diff / np.abs(bf) if real else (abs_diff / np.abs(bf)).astype(np.float32)
        rel_diff[mf] = 0
    shape = a.shape

    def greatest(d: np.ndarray[Any, Any]) -> tuple[Any, tuple[int, ...]]:
        nans = np.flatnonzero(np.isnan(d)) if _dtype.kind(d.dtype) in "fc" else np.array([], int)
        i = int(nans[0]) if nans.size else int(np.argmax(d))
        return d[i].item(), tuple(int(x) for x in np.unravel_index(i, shape))

    abs_v, abs_i = greatest(abs_diff)
    rel_v, rel_i = greatest(rel_diff)
    raise _Mismatch(
        AssertionError,
        _mismatch_msg("Tensor-likes", extra, abs_v, abs_i, rel_v, rel_i, rt, at),
    )


def _compare(
    actual: Any,
    expected: Any,
    rtol: float | None,
    atol: float | None,
    equal_nan: bool,
    check_dtype: bool,
) -> None:
    tensorish = (Tensor, np.ndarray)
    if isinstance(actual, tensorish) and isinstance(expected, tensorish):
        from engine._creation import as_tensor

        _compare_tensors(as_tensor(actual), as_tensor(expected), rtol, atol, equal_nan, check_dtype)
        return
    scalar = (int, float, complex)
    if isinstance(actual, scalar) and isinstance(expected, scalar):
        if check_dtype and type(actual) is not type(expected):
            raise _Mismatch(
                AssertionError,
                f"The values for attribute 'dtype' do not match: {type(actual)} != "
                f"{type(expected)}.",
            )
        floating = isinstance(actual, float | complex) or isinstance(expected, float | complex)
        rt, at = (
            (rtol, atol)
            if rtol is not None and atol is not None
            else ((1e-7, 1e-7) if floating else (0.0, 0.0))
        )
        if actual == expected or (floating and _scalar_close(actual, expected, rt, at, equal_nan)):
            return
        raise _Mismatch(AssertionError, _scalar_msg(actual, expected, rt, at))
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        if set(actual) != set(expected):
            raise _Mismatch(
                AssertionError,
                f"The keys of the mappings do not match:\nMissing keys in the actual mapping: "
                f"{sorted(set(expected) - set(actual))}\nAdditional keys in the actual mapping: "
                f"{sorted(set(actual) - set(expected))}",
            )
        for key in expected:
            _item(actual[key], expected[key], repr(key), rtol, atol, equal_nan, check_dtype)
        return
    seq = (list, tuple)
    if isinstance(actual, seq) and isinstance(expected, seq):
        if len(actual) != len(expected):
            raise _Mismatch(
                AssertionError,
                f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
            )
        for i, (x, y) in enumerate(zip(actual, expected, strict=True)):
            _item(x, y, str(i), rtol, atol, equal_nan, check_dtype)
        return
    raise _Mismatch(
        TypeError,
        f"No comparison pair was able to handle inputs of type {type(actual)} and "
        f"{type(expected)}.",
    )


def _scalar_close(a: Any, b: Any, rtol: float, atol: float, equal_nan: bool) -> bool:
    if isinstance(a, complex) or isinstance(b, complex):
        return bool(_close(complex(a), complex(b), rtol, atol, equal_nan))
    if math.isnan(a) or math.isnan(b):
        return equal_nan and math.isnan(a) and math.isnan(b)
    return bool(abs(a - b) <= atol + rtol * abs(b))


def _item(x: Any, y: Any, where: str, *args: Any) -> None:
    try:
        _compare(x, y, *args)
    except _Mismatch as m:
        if "The failure occurred for item" in m.message:
            prefix, _, rest = m.message.rpartition("The failure occurred for item ")
            m.message = f"{prefix}The failure occurred for item [{where}]{rest}"
        else:
            m.message += f"\n\nThe failure occurred for item [{where}]"
        raise


def assert_close(
    actual: Any,
    expected: Any,
    *,
    allow_subclasses: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg: Msg = None,
) -> None:
    """Raise AssertionError unless `actual` and `expected` are close (PyTorch's rules)."""
    if (rtol is None) != (atol is None):
        missing = "atol" if atol is None else "rtol"
        raise ValueError(
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}."
        )
    try:
        _compare(actual, expected, rtol, atol, equal_nan, check_dtype)
    except _Mismatch as m:
        text = m.message
        if callable(msg):
            text = msg(text)
        elif msg is not None:
            text = msg
        raise m.kind(text) from None


def assert_allclose(
    actual: Any,
    expected: Any,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = True,
    msg: str = "",
) -> None:
    """The deprecated spelling: `assert_close` without the dtype check."""
    warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a "
        "future release. Please use `torch.testing.assert_close()` instead. You can find "
        "detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
        FutureWarning,
    )
    assert_close(
        actual,
        expected,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_dtype=False,
        msg=msg or None,
    )


def make_tensor(
    *shape: Any,
    dtype: Any,
    device: Any = None,
    low: float | None = None,
    high: float | None = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """A tensor of `shape` drawn uniformly from [low, high) (default [-9, 9]; bool: 0/1)."""
    from engine._creation import empty
    from engine._random import randint

    size = tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], Sequence) else shape
    lo = -9.0 if low is None else low
    hi = 9.0 if high is None else high
    if dtype == _dtype.bool_:
        out = randint(0, 2, size).to(dtype)
    elif dtype.is_floating_point or dtype.is_complex:
        out = empty(size, dtype=dtype).uniform_(lo, hi)
    else:
        out = randint(math.ceil(lo), math.ceil(hi), size, dtype=dtype)
    if exclude_zero:
        out = out.masked_fill(out == 0, 1)
    return out.requires_grad_(requires_grad) if requires_grad else out
