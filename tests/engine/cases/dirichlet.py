"""Rows for engine/ops/dirichlet.py: `_sample_dirichlet` rows after a seed (float and double,
concentrations <= 0 or NaN, a 0-d tensor, where the stream stands afterwards), its
NotImplemented derivative, `_dirichlet_grad`'s branches (float and double, broadcasting),
errors."""

from tests.engine.cases import Case

SEED = "torch.manual_seed(0)\n"
ROWS = "[[1.0, 2.0, 3.0], [0.5, 0.5, 0.5], [10.0, 0.1, 1.0], [40.0, 25.0, 0.02]]"
X = "[[0.05, 0.3, 0.65], [0.9, 0.01, 0.09], [0.45, 0.5, 0.05], [0.999, 0.0005, 0.0005]]"
ALPHA = "[[1.0, 2.0, 3.0], [0.5, 0.5, 0.5], [10.0, 8.0, 1.0], [40.0, 25.0, 0.02]]"

CASES = [
    Case("sample_dirichlet", f"torch._sample_dirichlet(torch.tensor({ROWS}))", setup=SEED),
    Case(
        "sample_dirichlet_float64",
        f"torch._sample_dirichlet(torch.tensor({ROWS}, dtype=torch.float64))",
        setup=SEED,
    ),
    Case(
        "sample_dirichlet_edge",
        "(torch._sample_dirichlet(torch.tensor([[1.0, -1.0], [float('nan'), 2.0], [0.0, 0.0]])),"
        " torch.rand(3))",
        setup=SEED,
    ),
    Case("sample_dirichlet_0d", "torch._sample_dirichlet(torch.tensor(2.0))", setup=SEED),
    Case(
        "sample_dirichlet_requires_grad",
        "torch._sample_dirichlet(a)",
        {"a": (3, 4)},
        domain=(0.2, 5.0),
        setup=SEED,
        gradcheck=False,
    ),
    Case("sample_dirichlet_long", "torch._sample_dirichlet(torch.tensor([1, 2]))", raises=True),
    Case(
        "sample_dirichlet_half",
        "torch._sample_dirichlet(torch.ones(2, dtype=torch.float16))",
        raises=True,
    ),
    Case(
        "dirichlet_grad",
        f"torch._dirichlet_grad(torch.tensor({X}), torch.tensor({ALPHA}),"
        f" torch.tensor({ALPHA}).sum(-1, True))",
    ),
    Case(
        "dirichlet_grad_float64",
        f"torch._dirichlet_grad(torch.tensor({X}, dtype=torch.float64),"
        f" torch.tensor({ALPHA}, dtype=torch.float64),"
        f" torch.tensor({ALPHA}, dtype=torch.float64).sum(-1, True).expand(4, 3))",
    ),
    Case(
        "dirichlet_grad_requires_grad",
        "torch._dirichlet_grad(torch.full((2, 3), 0.3, dtype=torch.float64), a, a + 2)",
        {"a": (2, 3)},
        domain=(0.5, 4.0),
        gradcheck=False,
    ),
    Case(
        "dirichlet_grad_dtypes",
        "torch._dirichlet_grad(torch.ones(2) / 2, torch.ones(2),"
        " torch.ones(2, dtype=torch.float64))",
        raises=True,
    ),
    Case(
        "dirichlet_grad_shapes",
        "torch._dirichlet_grad(torch.ones(2) / 2, torch.ones(2), torch.ones(3))",
        raises=True,
    ),
]
