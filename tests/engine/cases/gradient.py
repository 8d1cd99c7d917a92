"""Rows for engine/ops/gradient.py: torch.gradient's finite differences."""

from tests.engine.cases import Case

CASES = [
    Case("gradient", "torch.gradient(a)[0]", {"a": (5,)}),
    Case("gradient_edge2_spacing", "torch.gradient(a, spacing=0.5, edge_order=2)", {"a": (3, 4)}),
    Case(
        "gradient_coordinates",
        "torch.gradient(a, spacing=[torch.tensor([0.0, 1.0, 3.0, 3.5])], dim=1, edge_order=2)[0]",
        {"a": (2, 4)},
    ),
]
