"""Rows for engine/ops/binomial.py: ATen's binomial draws after a seed with count and prob
tensors (inversion and BTRS, on both sides of 1/2; float and double; broadcasting), counts <= 0,
probabilities outside [0, 1] or NaN and where the stream stands afterwards, the NotImplemented
derivative, errors."""

from tests.engine.cases import Case

SEED = "torch.manual_seed(0)\n"
COUNT = "[5.0, 0.0, 100.0, 30.0, 7.0, 1000.0, 12.0, 50.0]"
PROB = "[0.5, 0.3, 0.7, 0.05, 0.99, 0.4, 0.95, 0.1]"

CASES = [
    Case("binomial", f"torch.binomial(torch.tensor({COUNT}), torch.tensor({PROB}))", setup=SEED),
    Case(
        "binomial_float64",
        f"torch.binomial(torch.tensor({COUNT}, dtype=torch.float64),"
        f" torch.tensor({PROB}, dtype=torch.float64))",
        setup=SEED,
    ),
    Case(
        "binomial_broadcast",
        "torch.binomial(torch.tensor([[10.0], [40.0]]).expand(2, 3),"
        " torch.tensor([0.2, 0.5, 0.9]))",
        setup=SEED,
    ),
    Case(
        "binomial_edge",
        "(torch.binomial(torch.tensor([5.0, -2.0, 100.0, 3.0, 20.0, 8.0]),"
        " torch.tensor([float('nan'), 0.2, 0.7, 1.5, -0.1, 0.0])), torch.rand(3))",
        setup=SEED,
    ),
    Case(
        "binomial_generator",
        "torch.binomial(torch.full((3, 4), 25.0), torch.rand(3, 4, generator=g), generator=g)",
        setup="g = torch.Generator().manual_seed(5)\n",
    ),
    Case(
        "binomial_requires_grad",
        "torch.binomial(torch.full((2, 3), 10.0, dtype=torch.float64), p)",
        {"p": (2, 3)},
        domain=(0.05, 0.95),
        setup=SEED,
        gradcheck=False,
    ),
    Case(
        "binomial_long_count",
        "torch.binomial(torch.tensor([5, 2]), torch.tensor([0.5, 0.2]))",
        raises=True,
    ),
    Case(
        "binomial_long_prob",
        "torch.binomial(torch.tensor([5.0]), torch.tensor([1, 0]))",
        raises=True,
    ),
    Case(
        "binomial_dtypes",
        "torch.binomial(torch.ones(2), torch.ones(2, dtype=torch.float64) / 2)",
        raises=True,
    ),
    Case(
        "binomial_shapes",
        "torch.binomial(torch.ones(2), torch.ones(3) / 2)",
        raises=True,
    ),
    Case(
        "binomial_half",
        "torch.binomial(torch.ones(2, dtype=torch.float16),"
        " torch.ones(2, dtype=torch.float16) / 2)",
        raises=True,
    ),
]
