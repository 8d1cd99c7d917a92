"""Rows for engine/ops/misc.py."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("kthvalue", "a.kthvalue(2).values", {"a": S}),
    Case("kthvalue_dim0_keepdim", "torch.kthvalue(a, 1, 0, True)[0]", {"a": S}),
    Case("mode", "(a * 0 + torch.tensor([1.0, 2.0, 1.0])).mode().values + a.sum(1)", {"a": S}),
    Case("mode_grad", "torch.mode(a.round(), 0)[0]", {"a": S}, gradcheck=False),
    Case("diff", "torch.diff(a)", {"a": S}),
    Case("diff_dim0", "a.diff(dim=0)", {"a": S}),
    Case("diff_n2_prepend", "torch.diff(a, n=2, prepend=b)", {"a": S, "b": (2, 1)}),
    Case("unique", "torch.unique(a.detach().round()) + 0 * a.sum()", {"a": S}, gradcheck=False),
    Case("bucketize", "torch.bucketize(a, torch.tensor([-1.0, 0.0, 1.0])) + 0 * a", {"a": S}),
    Case("isin", "torch.isin(a.round(), torch.tensor([0.0, 1.0])) * a", {"a": S}, gradcheck=False),
    Case("signbit", "torch.where(a.signbit(), a, 2 * a)", {"a": S}),
    Case("kthvalue_error", "a.kthvalue(4)", {"a": S}, raises=True),
    Case("unfold", "a.unfold(1, 2, 1)", {"a": S}),
    Case("unfold_step", "(a * 1).unfold(0, 1, 2)", {"a": (3, 2)}),
    Case("unfold_error", "a.unfold(1, 4, 1)", {"a": S}, raises=True),
    Case("where_method", "a.where(a > 0, b)", {"a": S, "b": S}),
    Case("positive_msort", "+torch.msort(a)", {"a": S}),
    # PyTorch defines no derivative: a NotImplemented node, its backward raises
    Case("heaviside", "torch.heaviside(a, b)", {"a": S, "b": S}, gradcheck=False),
    Case(
        "heaviside_const",
        "a.heaviside(torch.tensor([0.5], dtype=torch.float64))",
        {"a": S},
        gradcheck=False,
    ),
]
