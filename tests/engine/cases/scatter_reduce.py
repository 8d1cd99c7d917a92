"""Rows for engine/ops/scatter_reduce.py: every reduction, with and without self, ties,
zeros in products, the in-place form and PyTorch's refusals; index_reduce likewise."""

from tests.engine.cases import Case

S = (2, 3)
F64 = "dtype=torch.float64"
IDX = "i = torch.tensor([[0, 1, 0], [1, 0, 0]])\n"  # column 2 is never written
ALL = "i = torch.tensor([[0, 1, 2], [2, 1, 0]])\n"  # every column is written
SELF = "j = torch.tensor([[0, 1, 2], [0, 1, 2]])\n"  # every element onto itself: ties
ZEROS = IDX + f"z = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]], {F64})\n"

REDUCES = ("sum", "prod", "mean", "amax", "amin")
INDEX = "k = torch.tensor([0, 3, 0])\n"  # rows 1 and 2 are never written
BEYOND = "import warnings\nwarnings.simplefilter('ignore')\n"  # index_reduce warns once: beta

CASES = [
    *(
        Case(
            f"scatter_reduce_{r}",
            f"torch.scatter_reduce(a, 1, i, b, '{r}')",
            {"a": S, "b": S},
            setup=IDX,
        )
        for r in REDUCES
    ),
    *(
        Case(
            f"scatter_reduce_{r}_without_self",
            f"a.scatter_reduce(1, i, b, reduce='{r}', include_self=False)",
            {"a": S, "b": S},
            setup=ALL,
        )
        for r in REDUCES
    ),
    # PyTorch's second derivative here holds rounding noise (-2e-16) where ours is exactly 0:
    # first derivatives only
    *(
        Case(
            f"scatter_reduce_{r}_without_self_unwritten",
            f"a.scatter_reduce(1, i, b, reduce='{r}', include_self=False)",
            {"a": S, "b": S},
            setup=IDX,
            gradcheck=False,
        )
        for r in REDUCES
    ),
    Case("scatter_reduce_dim0", "a.scatter_reduce(0, i, b, 'mean')", {"a": S, "b": S}, setup=IDX),
    Case(
        "scatter_reduce_src_larger",
        "a.scatter_reduce(1, i[:, :2], b[:, :2], 'sum')",
        {"a": S, "b": S},
        setup=IDX,
    ),
    Case(  # PyTorch's backward refuses a src larger than index (its gradient has index's shape)
        "scatter_reduce_src_larger_than_index",
        "a.scatter_reduce(1, i[:, :2], b, 'sum')",
        {"a": S, "b": S},
        setup=IDX,
        gradcheck=False,
    ),
    Case(
        "scatter_reduce_amax_ties",
        "a.scatter_reduce(1, j, a * 1, 'amax')",
        {"a": S},
        setup=SELF,
        gradcheck=False,
    ),
    Case(
        "scatter_reduce_amin_ties_without_self",
        "a.scatter_reduce(1, i, b * 0 + a.detach(), 'amin', include_self=False)",
        {"a": S, "b": S},
        setup=IDX,
        gradcheck=False,
    ),
    Case(
        "scatter_reduce_prod_zero_self",
        "(a * z).scatter_reduce(1, i, b, 'prod')",
        {"a": S, "b": S},
        setup=ZEROS,
    ),
    Case(
        "scatter_reduce_prod_zero_src",
        "a.scatter_reduce(1, i, b * z, 'prod')",
        {"a": S, "b": S},
        setup=ZEROS,
    ),
    Case(
        "scatter_reduce_inplace",
        "a.clone().scatter_reduce_(1, i, b, 'amax', include_self=False)",
        {"a": S, "b": S},
        setup=IDX,
    ),
    Case(
        "scatter_reduce_mean_int",
        "torch.tensor([[4, 5, 6]]).scatter_reduce(1, torch.tensor([[0, 0, 0]]), "
        "torch.tensor([[1, 2, 4]]), 'mean')",
    ),
    # the forward takes "max", its backward refuses it (as PyTorch does)
    Case(
        "scatter_reduce_max_alias",
        "a.scatter_reduce(1, i, b, 'max')",
        {"a": S, "b": S},
        setup=IDX,
        gradcheck=False,
    ),
    Case(
        "scatter_reduce_bad_reduce",
        "a.scatter_reduce(1, i, b, 'foo')",
        {"a": S, "b": S},
        setup=IDX,
        raises=True,
    ),
    Case(
        "scatter_reduce_float_index",
        "a.scatter_reduce(1, i.float(), b, 'sum')",
        {"a": S, "b": S},
        setup=IDX,
        raises=True,
    ),
    Case(
        "scatter_reduce_dtype_mismatch",
        "a.scatter_reduce(1, i, b.float(), 'sum')",
        {"a": S, "b": S},
        setup=IDX,
        raises=True,
    ),
    Case(
        "scatter_reduce_bad_dim",
        "a.scatter_reduce(3, i, b, 'sum')",
        {"a": S, "b": S},
        setup=IDX,
        raises=True,
    ),
    Case(
        "scatter_reduce_index_out_of_bounds",
        "a.scatter_reduce(1, torch.tensor([[5, 0, 0]]), b, 'sum')",
        {"a": S, "b": S},
        raises=True,
    ),
    Case(
        "scatter_reduce_index_ndim",
        "a.scatter_reduce(1, torch.tensor([0, 1]), b, 'sum')",
        {"a": S, "b": S},
        raises=True,
    ),
    Case(
        "scatter_reduce_no_reduce",
        "a.scatter_reduce(1, i, b)",
        {"a": S, "b": S},
        setup=IDX,
        raises=True,
    ),
    *(
        Case(
            f"index_reduce_{r}{'' if inc else '_without_self'}",
            f"a.index_reduce(0, k, b, '{r}', include_self={inc})",
            {"a": (4, 3), "b": (3, 3)},
            setup=BEYOND + INDEX,
        )
        for r in ("prod", "mean", "amax", "amin")
        for inc in (True, False)
    ),
    Case(
        "index_reduce_dim1_zeros",
        "(a * z).index_reduce(1, torch.tensor([2, 0, 2]), b * z, 'prod')",
        {"a": S, "b": S},
        setup=ZEROS + BEYOND,
    ),
    Case(
        "index_reduce_inplace",
        "(a * 1).index_reduce_(0, k, b, 'mean')",
        {"a": (4, 3), "b": (3, 3)},
        setup=BEYOND + INDEX,
    ),
    Case(
        "index_reduce_sum",
        "a.index_reduce(0, k, b, 'sum')",
        {"a": (4, 3), "b": (3, 3)},
        setup=BEYOND + INDEX,
        raises=True,
    ),
    Case(
        "index_reduce_count",
        "a.index_reduce(0, k[:2], b, 'amax')",
        {"a": (4, 3), "b": (3, 3)},
        setup=BEYOND + INDEX,
        raises=True,
    ),
    Case(
        "index_reduce_matrix_index",
        "a.index_reduce(0, torch.tensor([[0], [1], [3]]), b, 'amax')",
        {"a": (4, 3), "b": (3, 3)},
        setup=BEYOND,
        raises=True,
    ),
    Case(  # two zeros of src on one position: its double backward raises (ATen's DelayedError)
        "scatter_reduce_prod_two_zeros",
        "(a * z).scatter_reduce(1, torch.tensor([[2, 2, 2], [2, 2, 2]]), b * z, 'prod')",
        {"a": S, "b": S},
        setup=ZEROS,
    ),
]
