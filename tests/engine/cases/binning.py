"""Rows for engine/ops/binning.py: bucketize."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("bucketize", "torch.bucketize(a, torch.tensor([-1.0, 0.0, 1.0])) + 0 * a", {"a": S}),
]
