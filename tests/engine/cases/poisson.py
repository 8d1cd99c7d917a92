"""Rows for engine/ops/poisson.py: PyTorch's own draws after a seed (small rates by multiplied
uniforms, large ones by Hoermann's rejection), the zero gradient of PoissonBackward0, errors."""

from tests.engine.cases import Case

SEED = "torch.manual_seed(0)\n"

CASES = [
    Case("poisson", "torch.poisson(r)", {"r": (2, 3)}, domain=(0.5, 25.0), setup=SEED),
    Case("poisson_times_rate", "torch.poisson(r) * r", {"r": (4,)}, domain=(0.5, 25.0), setup=SEED),
    Case(
        "poisson_float32",
        "torch.poisson(torch.tensor([0.5, 3.0, 15.0, 0.0, 100.0, 1.0, 1e4]))",
        setup=SEED,
    ),
    Case(
        "poisson_generator",
        "torch.poisson(torch.rand(3, 4, generator=g) * 30, generator=g)",
        setup="g = torch.Generator().manual_seed(5)\n",
    ),
    Case("poisson_half", "torch.poisson(torch.full((5,), 2.5, dtype=torch.float16))", setup=SEED),
    Case("poisson_negative", "torch.poisson(torch.tensor([1.0, -1.0]))", raises=True),
    Case("poisson_nan", "torch.poisson(torch.tensor([float('nan')]))", raises=True),
    Case("poisson_long", "torch.poisson(torch.tensor([1, 2]))", raises=True),
]
