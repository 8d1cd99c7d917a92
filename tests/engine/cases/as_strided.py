"""Rows for engine/ops/as_strided.py: views laid out by sizes and strides, offsets,
overlapping reads (their gradients add up), views of views, and PyTorch's refusals; and
as_strided_scatter (src's gradient is gradchecked; self's is PyTorch's formula, which is not
the derivative, so those rows are compared only)."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("as_strided", "torch.as_strided(a, (2, 2), (1, 2))", {"a": S}),
    Case("as_strided_offset", "a.as_strided((2, 2), (1, 2), 1)", {"a": S}),
    Case("as_strided_overlapping", "a.as_strided((2, 2), (1, 1))", {"a": S}),
    Case("as_strided_of_op", "(a * 2).as_strided((3,), (2,))", {"a": S}),
    Case("as_strided_of_slice", "a[1:].as_strided((2,), (1,))", {"a": (4,)}),
    Case(
        "as_strided_then_inplace", "a.clone().as_strided((2,), (3,)).mul_(b)", {"a": S, "b": (2,)}
    ),
    Case("as_strided_is_view", "a.as_strided((3,), (1,))._base is a", {"a": S}),
    Case("as_strided_out_of_bounds", "a.as_strided((3, 3), (3, 1))", {"a": S}, raises=True),
    Case("as_strided_length_mismatch", "a.as_strided((3, 3), (3,))", {"a": S}, raises=True),
    Case("as_strided_negative_stride", "a.as_strided((2,), (-1,))", {"a": S}, raises=True),
    Case(
        "as_strided_scatter_src",
        "torch.as_strided_scatter(torch.zeros(3, 3).double(), s, (2, 2), (1, 2), 1)",
        {"s": (2, 2)},
    ),
    # overwritten src elements still get their gradient (PyTorch's formula): compared only
    Case(
        "as_strided_scatter_overlapping_src",
        "torch.zeros(4).double().as_strided_scatter(s, (2, 2), (1, 1))",
        {"s": (2, 2)},
        gradcheck=False,
    ),
    Case(
        "as_strided_scatter_both",
        "torch.as_strided_scatter(a, s, (2,), (2,), 1)",
        {"a": S, "s": (2,)},
        gradcheck=False,
    ),
    Case(
        "as_strided_scatter_size",
        "torch.as_strided_scatter(a, s, (2,), (2,))",
        {"a": S, "s": (3,)},
        raises=True,
    ),
    Case(
        "as_strided_scatter_noncontiguous",
        "torch.as_strided_scatter(a.t(), s, (2,), (1,))",
        {"a": S, "s": (2,)},
        raises=True,
    ),
]
