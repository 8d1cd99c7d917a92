"""Rows for engine/ops/linalg_householder.py (and pointwise_binary's geometric_)."""

from tests.engine.cases import Case

CASES = [
    Case("orgqr", "torch.orgqr(a, t)", {"a": (4, 3), "t": (2,)}),
    Case("householder_product", "torch.linalg.householder_product(a, t)", {"a": (3, 3), "t": (3,)}),
    Case(
        "householder_product_complex",
        "torch.view_as_real(torch.linalg.householder_product(torch.complex(a, a.flip(1)), "
        "torch.complex(t, t.flip(0))))",
        {"a": (4, 3), "t": (2,)},
    ),
    # GeqrfBackward0 refuses backward (PyTorch's "not implemented"): compared, not gradchecked
    Case("geqrf", "torch.geqrf(a)", {"a": (4, 3)}, gradcheck=False),
    # a random fill of a non-leaf: its node passes a zero gradient (seeded so values agree)
    Case("geometric_", "(a * 1).geometric_(0.5)", {"a": (2, 3)}, setup="torch.manual_seed(0)"),
]
