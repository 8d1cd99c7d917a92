"""Rows for engine/ops/linalg_lu.py: the LU factorizations and their gradients (square)."""

from tests.engine.cases import Case

CASES = [
    Case("linalg_lu_L", "torch.linalg.lu(a).L", {"a": (3, 3)}),
    Case("linalg_lu_U", "torch.linalg.lu(a)[2]", {"a": (3, 3)}),
    Case("linalg_lu_batched", "(lambda r: r.L * 2 + r.U)(torch.linalg.lu(a))", {"a": (2, 3, 3)}),
    Case("linalg_lu_P", "torch.linalg.lu(a).P", {"a": (3, 3)}, gradcheck=False),
    Case("linalg_lu_factor", "torch.linalg.lu_factor(a).LU", {"a": (3, 3)}),
    Case("linalg_lu_factor_ex", "torch.linalg.lu_factor_ex(a)[0]", {"a": (2, 3, 3)}),
    Case("linalg_lu_factor_pivots", "torch.linalg.lu_factor(a).pivots", {"a": (4, 4)}),
    # (its deprecation warning is checked by tests/engine/snippets/linalg_lu_factor_solve_unpack.py)
    Case(
        "lu",
        "torch.lu(a)[0]",
        {"a": (3, 3)},
        setup="import warnings; warnings.simplefilter('ignore')",
    ),
]
