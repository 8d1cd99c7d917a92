"""Rows for engine/ops/sorting.py: kthvalue, mode, msort (median's rows are in reduce)."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("kthvalue", "a.kthvalue(2).values", {"a": S}),
    Case("kthvalue_dim0_keepdim", "torch.kthvalue(a, 1, 0, True)[0]", {"a": S}),
    Case("mode", "(a * 0 + torch.tensor([1.0, 2.0, 1.0])).mode().values + a.sum(1)", {"a": S}),
    Case("mode_grad", "torch.mode(a.round(), 0)[0]", {"a": S}, gradcheck=False),
    Case("kthvalue_error", "a.kthvalue(4)", {"a": S}, raises=True),
    Case("positive_msort", "+torch.msort(a)", {"a": S}),
]
