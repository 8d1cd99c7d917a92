"""Rows for engine/ops/view_scatter.py: select/slice/diagonal_scatter (values, both gradients,
src cast to self's dtype, PyTorch's refusals)."""

from tests.engine.cases import Case

CASES = [
    Case("select_scatter", "torch.select_scatter(x, s, 0, 1)", {"x": (4, 3), "s": (3,)}),
    Case("select_scatter_method_neg", "x.select_scatter(s, -1, -1)", {"x": (2, 3), "s": (2,)}),
    Case(
        "select_scatter_self_only", "torch.select_scatter(x, torch.zeros(3), 0, 2)", {"x": (4, 3)}
    ),
    Case(
        "select_scatter_src_only", "torch.zeros(2, 3).double().select_scatter(s, 1, 1)", {"s": (2,)}
    ),
    Case(
        "select_scatter_src_float32",
        "torch.select_scatter(x, s.float(), 1, 0)",
        {"x": (2, 2), "s": (2,)},
        gradcheck=False,
    ),
    Case(
        "select_scatter_long_self",
        "torch.select_scatter(torch.zeros(2, 2, dtype=torch.long), s, 0, 0)",
        {"s": (2,)},
        raises=True,
    ),
    Case(
        "select_scatter_number_src",
        "torch.select_scatter(x, 1.0, 0, 0)",
        {"x": (2, 2)},
        raises=True,
    ),
    Case("slice_scatter_number_src", "torch.slice_scatter(x, 1.0)", {"x": (2, 2)}, raises=True),
    Case(
        "select_scatter_index_range",
        "torch.select_scatter(x, s, 0, 5)",
        {"x": (4, 3), "s": (3,)},
        raises=True,
    ),
    Case(
        "select_scatter_dim_range",
        "torch.select_scatter(x, s, 2, 0)",
        {"x": (4, 3), "s": (3,)},
        raises=True,
    ),
    Case(
        "select_scatter_size",
        "torch.select_scatter(x, s, 0, 1)",
        {"x": (4, 3), "s": (2, 3)},
        raises=True,
    ),
    Case("slice_scatter", "torch.slice_scatter(x, s, 0, 1, 4, 2)", {"x": (4, 3), "s": (2, 3)}),
    Case("slice_scatter_defaults", "torch.slice_scatter(x, s)", {"x": (2, 3), "s": (2, 3)}),
    Case(
        "slice_scatter_method_dim1",
        "x.slice_scatter(s, dim=1, start=-2)",
        {"x": (2, 3), "s": (2, 2)},
    ),
    Case(
        "slice_scatter_end_past", "torch.slice_scatter(x, s, 1, 1, 10)", {"x": (2, 3), "s": (2, 2)}
    ),
    Case(
        "slice_scatter_step0",
        "torch.slice_scatter(x, s, 0, 0, 2, 0)",
        {"x": (4, 3), "s": (2, 3)},
        raises=True,
    ),
    Case(
        "slice_scatter_size", "torch.slice_scatter(x, s, 0)", {"x": (4, 3), "s": (3,)}, raises=True
    ),
    Case("diagonal_scatter", "torch.diagonal_scatter(x, d)", {"x": (4, 3), "d": (3,)}),
    Case("diagonal_scatter_offset", "x.diagonal_scatter(d, -1)", {"x": (4, 3), "d": (3,)}),
    Case(
        "diagonal_scatter_dims",
        "torch.diagonal_scatter(x, d, 1, 2, 0)",
        {"x": (3, 2, 4), "d": (2, 2)},
    ),
    Case(
        "diagonal_scatter_same_dims",
        "torch.diagonal_scatter(x, d, 0, 1, 1)",
        {"x": (4, 3), "d": (3,)},
        raises=True,
    ),
    Case(
        "diagonal_scatter_size",
        "torch.diagonal_scatter(x, d)",
        {"x": (4, 3), "d": (2,)},
        raises=True,
    ),
]
