"""Rows for engine/ops/unique.py: unique and isin."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("unique", "torch.unique(a.detach().round()) + 0 * a.sum()", {"a": S}, gradcheck=False),
    # a float input that requires grad: recorded, but backward raises (no derivative)
    Case("unique_grad", "torch.unique(a)", {"a": S}, gradcheck=False),
    Case("unique_dim_grad", "torch.unique(a, dim=1)", {"a": S}, gradcheck=False),
    Case("unique_consecutive_grad", "torch.unique_consecutive(a)", {"a": S}, gradcheck=False),
    Case("isin", "torch.isin(a.round(), torch.tensor([0.0, 1.0])) * a", {"a": S}, gradcheck=False),
]
