"""Rows for engine/ops/linalg_ormqr.py: torch.ormqr on each side, with and without the
transpose (values, gradients of all three inputs, PyTorch's refusals)."""

from tests.engine.cases import Case

CASES = [
    Case("ormqr", "torch.ormqr(a, t, c)", {"a": (4, 3), "t": (3,), "c": (4, 2)}),
    Case(
        "ormqr_left_transpose",
        "torch.ormqr(a, t, c, transpose=True)",
        {"a": (4, 3), "t": (3,), "c": (4, 2)},
    ),
    Case(
        "ormqr_right_method",
        "a.ormqr(t, c, False, False)",
        {"a": (4, 3), "t": (3,), "c": (2, 4)},
    ),
    Case(
        "ormqr_right_transpose_batched",
        "torch.ormqr(a, t, c, left=False, transpose=True)",
        {"a": (2, 3, 4), "t": (2, 3), "c": (2, 1, 3)},
    ),
    # complex: built from real inputs and viewed back as real (cases/complex.py)
    Case(
        "ormqr_complex",
        "torch.view_as_real(torch.ormqr(torch.complex(a, a.flip(0)), torch.complex(t, -t), "
        "torch.complex(c, c.flip(1))))",
        {"a": (3, 3), "t": (3,), "c": (3, 2)},
    ),
    Case(
        "ormqr_other_rows",
        "torch.ormqr(a, t, c)",
        {"a": (4, 3), "t": (3,), "c": (3, 2)},
        raises=True,
    ),
    Case(
        "ormqr_tau_size", "torch.ormqr(a, t, c)", {"a": (4, 3), "t": (2,), "c": (4, 2)}, raises=True
    ),
    Case(
        "ormqr_batch",
        "torch.ormqr(a, t, c)",
        {"a": (2, 4, 3), "t": (3, 3), "c": (2, 4, 2)},
        raises=True,
    ),
    Case(
        "ormqr_dtype",
        "torch.ormqr(a, t, c.float())",
        {"a": (4, 3), "t": (3,), "c": (4, 2)},
        raises=True,
    ),
]
