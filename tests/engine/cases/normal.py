"""Rows for engine/_random.py's `torch.normal` with tensor arguments: the draw after a seed
(broadcast mean and std), and its node (NormalBackward1: a tensor mean, 2: a tensor std, 3:
both), whose gradients are zeros. No gradcheck: a re-seeded draw's central differences follow
the sample, not the zero derivative PyTorch defines."""

from tests.engine.cases import Case

SEED = "torch.manual_seed(0)\n"

CASES = [
    Case("normal_tensor_mean", "torch.normal(a, 2.0)", {"a": (2, 3)}, setup=SEED, gradcheck=False),
    Case(
        "normal_tensor_std",
        "torch.normal(0.5, a.abs() + 0.1)",
        {"a": (3,)},
        setup=SEED,
        gradcheck=False,
    ),
    Case(
        "normal_both_broadcast",
        "torch.normal(a, b.abs())",
        {"a": (2, 1), "b": (3,)},
        setup=SEED,
        gradcheck=False,
    ),
    Case(
        "normal_no_broadcast", "torch.normal(a, b)", {"a": (3,), "b": (2,)}, setup=SEED, raises=True
    ),
    Case(
        "normal_negative_std",
        "torch.normal(a, b)",
        {"a": (3,), "b": (3,)},
        domain=(-2, -1),
        setup=SEED,
        raises=True,
    ),
    Case(
        "normal_negative_number_std", "torch.normal(a, -1.5)", {"a": (3,)}, setup=SEED, raises=True
    ),
]
