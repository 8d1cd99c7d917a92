"""Rows for engine/ops/index_copy.py."""

from tests.engine.cases import Case

CASES = [
    Case(
        "index_copy",
        "x.index_copy(0, i, s)",
        {"x": (4, 3), "s": (2, 3)},
        setup="i = torch.tensor([3, 1])\n",
    ),
    Case(
        "index_copy_dim1",
        "torch.index_copy(x, 1, i, s)",
        {"x": (2, 4), "s": (2, 1)},
        setup="i = torch.tensor([2])\n",
    ),
    Case(
        "index_copy_float_index",
        "x.index_copy(0, i, s)",
        {"x": (3,), "s": (1,)},
        setup="i = torch.tensor([1.0])\n",
        raises=True,
    ),
]
