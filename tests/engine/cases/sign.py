"""Rows for engine/ops/sign.py: signbit and heaviside (copysign's are in linalg_decomp)."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("signbit", "torch.where(a.signbit(), a, 2 * a)", {"a": S}),
    # PyTorch defines no derivative: a NotImplemented node, its backward raises
    Case("heaviside", "torch.heaviside(a, b)", {"a": S, "b": S}, gradcheck=False),
    Case(
        "heaviside_const",
        "a.heaviside(torch.tensor([0.5], dtype=torch.float64))",
        {"a": S},
        gradcheck=False,
    ),
]
