"""Rows for engine/ops/linalg_ldl.py and engine/linalg.py's tensorinv and tensorsolve.

LDL has no derivative in PyTorch (its NotImplemented node): its rows compare values, pivots
and the refusal; tensorinv and tensorsolve are compositions of inv and solve.
"""

from tests.engine.cases import Case

SYM = "(a + a.mT)"
EYE = "I = torch.eye(4, dtype=torch.float64)\n"

CASES = [
    Case(
        "ldl_factor_LD",
        f"torch.linalg.ldl_factor({SYM}.detach()).LD",
        {"a": (4, 4)},
        gradcheck=False,
    ),
    Case(
        "ldl_factor_pivots",
        f"torch.linalg.ldl_factor({SYM}.detach())[1]",
        {"a": (2, 4, 4)},
        gradcheck=False,
    ),
    Case(
        "ldl_factor_ex_info",
        "torch.linalg.ldl_factor_ex(a.detach() * 0).info",
        {"a": (3, 3)},
        gradcheck=False,
    ),
    Case(
        "ldl_solve",
        f"torch.linalg.ldl_solve(*torch.linalg.ldl_factor({SYM}.detach()), b.detach())",
        {"a": (2, 4, 4), "b": (4, 2)},
        gradcheck=False,
    ),
    Case("ldl_factor_not_square", "torch.linalg.ldl_factor(a)", {"a": (3, 4)}, raises=True),
    Case(
        "ldl_factor_backward",
        f"torch.linalg.ldl_factor({SYM}).LD.sum().backward()",
        {"a": (3, 3)},
        raises=True,
    ),
    Case(
        "tensorinv",
        "torch.linalg.tensorinv(a + I.reshape(4, 2, 2), ind=1)",
        {"a": (4, 2, 2)},
        setup=EYE,
    ),
    Case("tensorinv_bad_ind", "torch.linalg.tensorinv(a, ind=0)", {"a": (4, 4)}, raises=True),
    Case("tensorinv_not_square", "torch.linalg.tensorinv(a)", {"a": (2, 3, 4)}, raises=True),
    Case(
        "tensorsolve",
        "torch.linalg.tensorsolve(a + I.reshape(2, 2, 2, 2), b)",
        {"a": (2, 2, 2, 2), "b": (2, 2)},
        setup=EYE,
    ),
    Case(
        "tensorsolve_dims",
        "torch.linalg.tensorsolve(a + I.reshape(2, 2, 2, 2), b, dims=(0,))",
        {"a": (2, 2, 2, 2), "b": (2, 2)},
        setup=EYE,
    ),
]
