"""Rows for engine/ops/unique.py: unique and isin."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("unique", "torch.unique(a.detach().round()) + 0 * a.sum()", {"a": S}, gradcheck=False),
    Case("isin", "torch.isin(a.round(), torch.tensor([0.0, 1.0])) * a", {"a": S}, gradcheck=False),
]
