"""The printed-output comparison: exact text, tolerant only of processor-dependent rounding."""

from __future__ import annotations

import pytest

from tests.engine.printout import differences


@pytest.mark.parametrize(
    ("got", "want"),
    [
        ("tensor([0.0000, 1.5000])\n", "tensor([-0.0000, 1.5000])\n"),
        ("y = -0.0000 x + 0.8567\n", "y = 0.0000 x + 0.8568\n"),
        ("tensor([1.2346e-08])", "tensor([1.2345e-08])"),
        ("same text", "same text"),
    ],
)
def test_processor_dependent_rounding_is_tolerated(got: str, want: str) -> None:
    assert differences(got, want) == []


@pytest.mark.parametrize(
    ("got", "want"),
    [
        ("tensor([0.0001])", "tensor([0.0003])"),  # two units in the last digit
        ("tensor([0.00])", "tensor([0.0000])"),  # another printed precision
        ("tensor([1.0000e-08])", "tensor([0.0000])"),  # another notation
        ("tensor([1., 2.])", "tensor([1., 2.], grad_fn=<AddBackward0>)"),
        ("tensor([1, 2])", "tensor([1, 2, 3])"),
        ("tensor([nan])", "tensor([0.])"),
        ("tensor([3])", "tensor([2])"),  # integers have no rounding to forgive
    ],
)
def test_other_differences_are_reported(got: str, want: str) -> None:
    assert differences(got, want) != []
