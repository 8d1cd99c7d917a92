"""Rows for engine/ops/gamma.py: ATen's gamma draws after a seed (float and double kernels, the
boosted branch below 1, concentrations <= 0 or NaN drawing the smallest normal, and where the
stream stands afterwards), StandardGammaBackward0's gradient (through `_standard_gamma_grad`'s
three branches), `_standard_gamma_grad` itself and its NotImplemented derivative, errors.

The draws' gradient cases do not gradcheck: central differences of a re-seeded draw follow the
sampler's own path (Marsaglia-Tsang's transform of a fixed normal), not the implicit
reparameterisation PyTorch differentiates; the recorded gradients are compared instead."""

from tests.engine.cases import Case

SEED = "torch.manual_seed(0)\n"
EDGE = "torch.tensor([-1.0, 0.0, float('nan'), 2.0, -0.5, 0.3, float('inf')]"
DRAWS = "torch.tensor([[0.3, 1.0, 4.0], [0.5, 9.0, 20.0]], dtype=torch.float64)"

CASES = [
    Case(
        "standard_gamma",
        "torch._standard_gamma(a)",
        {"a": (2, 3)},
        domain=(0.2, 5.0),
        setup=SEED,
        gradcheck=False,
    ),
    Case(
        "standard_gamma_float32",
        "torch._standard_gamma(a.float())",
        {"a": (6,)},
        domain=(0.3, 12.0),
        setup=SEED,
        gradcheck=False,
    ),
    Case(
        "standard_gamma_small",
        "torch._standard_gamma(a)",
        {"a": (6,)},
        domain=(0.05, 0.9),
        setup=SEED,
        gradcheck=False,
    ),
    Case(
        "standard_gamma_large",
        "torch._standard_gamma(a) * 2",
        {"a": (6,)},
        domain=(8.5, 60.0),
        setup=SEED,
        gradcheck=False,
    ),
    Case("standard_gamma_edge", f"(torch._standard_gamma({EDGE})), torch.rand(3))", setup=SEED),
    Case(
        "standard_gamma_edge_float64",
        f"(torch._standard_gamma({EDGE}, dtype=torch.float64)), torch.rand(3))",
        setup=SEED,
    ),
    Case(
        "standard_gamma_generator",
        "torch._standard_gamma(torch.rand(3, 4, generator=g) * 5, generator=g)",
        setup="g = torch.Generator().manual_seed(5)\n",
    ),
    Case("standard_gamma_long", "torch._standard_gamma(torch.tensor([1, 2]))", raises=True),
    Case(
        "standard_gamma_half",
        "torch._standard_gamma(torch.ones(2, dtype=torch.float16))",
        raises=True,
    ),
    Case(
        "standard_gamma_grad",
        f"torch._standard_gamma_grad(a, {DRAWS})",
        {"a": (2, 3)},
        domain=(0.5, 12.0),
        gradcheck=False,
    ),
    Case(
        "standard_gamma_grad_float32",
        "torch._standard_gamma_grad(torch.tensor([[0.5], [2.0], [9.0], [30.0]]),"
        " torch.tensor([0.1, 0.7, 2.5, 9.5, 31.0]))",
    ),
    Case(
        "standard_gamma_grad_dtypes",
        "torch._standard_gamma_grad(torch.ones(2), torch.ones(2, dtype=torch.float64))",
        raises=True,
    ),
    Case(
        "standard_gamma_grad_shapes",
        "torch._standard_gamma_grad(torch.ones(2), torch.ones(3))",
        raises=True,
    ),
    Case(
        "standard_gamma_grad_long",
        "torch._standard_gamma_grad(torch.tensor([1, 2]), torch.tensor([1, 2]))",
        raises=True,
    ),
]
