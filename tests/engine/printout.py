"""Printed output compared with PyTorch's: exact text, except where PyTorch's own output differs
between processors.

A value that is zero up to rounding prints as `0.0000` or `-0.0000` depending on summation order,
and a BLAS kernel can move the last printed digit. So the text around numbers must match exactly,
each number must be written in the same form (digits after the point, notation), and two numbers
that differ in text may differ by at most one unit in their last printed digit.
"""

from __future__ import annotations

import difflib
import re

# a decimal number as PyTorch and Python print them (1., -0.0000, 1.2345e-08, 3, nan and inf
# are words and must match exactly)
_NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:e[+-]\d+)?")


def _form(token: str) -> tuple[int, bool]:
    """Digits after the point and whether it is in scientific notation."""
    mantissa, _, exponent = token.lstrip("-").partition("e")
    _, _, decimals = mantissa.partition(".")
    return len(decimals), bool(exponent)


def _last_digit_unit(token: str) -> float:
    mantissa, _, exponent = token.lstrip("-").partition("e")
    _, _, decimals = mantissa.partition(".")
    return 10.0 ** (-len(decimals) + (int(exponent) if exponent else 0))


def numbers_agree(got: str, want: str) -> bool:
    """Same text, or the same form and at most one unit apart in the last printed digit."""
    if got == want:
        return True
    decimals, scientific = _form(want)
    if _form(got) != (decimals, scientific):
        return False
    if not decimals and not scientific:
        return float(got) == float(want)  # integers, and floats printed as `3.`: no rounding

    unit = _last_digit_unit(want)
    # 1.5 units: both sides were rounded from nearby values (half a unit each) plus a margin
    return abs(float(got) - float(want)) <= 1.5 * unit


def differences(got: str, want: str) -> list[str]:
    """Where `got` is not `want` beyond processor-dependent rounding (empty when they agree)."""
    if got == want:
        return []
    got_text, want_text = _NUMBER.split(got), _NUMBER.split(want)
    got_nums, want_nums = _NUMBER.findall(got), _NUMBER.findall(want)
    if got_text != want_text or len(got_nums) != len(want_nums):
        diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "PyTorch", "engine", n=1)
        return ["text differs:", *diff]
    return [
        f"number {i}: engine {g!r}, PyTorch {w!r}"
        for i, (g, w) in enumerate(zip(got_nums, want_nums))
        if not numbers_agree(g, w)
    ]


def assert_same_printout(got: str, want: str) -> None:
    found = differences(got, want)
    assert not found, "\n".join(found)
