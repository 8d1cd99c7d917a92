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
    Case(
        "linalg_lu_solve",
        "torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b)",
        {"a": (2, 3, 3), "b": (3, 2)},
    ),
    Case(
        "linalg_lu_solve_adjoint_right",
        "torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b, left=False, adjoint=True)",
        {"a": (3, 3), "b": (2, 3)},
    ),
    Case(
        "linalg_lu_solve_right",
        "torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b, left=False)",
        {"a": (3, 3), "b": (2, 3)},
    ),
    Case(
        "linalg_lu_solve_adjoint",
        "torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b, adjoint=True)",
        {"a": (3, 3), "b": (3, 1)},
    ),
    # (their deprecation warnings are checked by tests/engine/snippets/lu_solve_node.py)
    Case(
        "lu_solve",
        "torch.lu_solve(b, *torch.linalg.lu_factor(a))",
        {"a": (3, 3), "b": (3, 2)},
        setup="import warnings; warnings.simplefilter('ignore')",
    ),
    # (its deprecation warning is checked by tests/engine/snippets/linalg_lu_factor_solve_unpack.py)
    Case(
        "lu",
        "torch.lu(a)[0]",
        {"a": (3, 3)},
        setup="import warnings; warnings.simplefilter('ignore')",
    ),
]
