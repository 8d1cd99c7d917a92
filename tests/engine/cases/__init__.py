"""The op table's test rows, one module per op family; see `Case`."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Case:
    """One differential test row.

    `expr` is a Python expression over `torch` and the input names; `inputs` maps each name to
    the shape of a float tensor with requires_grad (values drawn deterministically in
    `domain`); `setup` is extra code run first (non-differentiable inputs such as index
    tensors, built only from literals/arange so torch and the engine agree). The recorder runs
    it under real PyTorch and stores values, gradients, grad_fn names and errors; the test runs
    it on the engine and compares, and checks gradients numerically in float64 when `gradcheck`.
    """

    name: str
    expr: str
    inputs: dict[str, tuple[int, ...]] = field(default_factory=dict)
    domain: tuple[float, float] = (-2.0, 2.0)
    setup: str = ""
    gradcheck: bool = True
    # Cases whose result is an error: the recorder stores type and message for comparison.
    raises: bool = False
