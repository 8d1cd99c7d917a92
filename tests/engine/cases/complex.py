"""Rows for engine/ops/complex.py and complex_polar.py, plus complex gradients of other ops.

Inputs are real; complex tensors are built inside the expression and viewed back as real, so
the recorded values and gradients stay real while every node in between is complex.
"""

from tests.engine.cases import Case

S = (2, 3)
P = {"a": S, "b": S}
CASES = [
    Case("complex_mul", "torch.view_as_real(torch.complex(a, b) * torch.complex(b, a))", P),
    Case("complex_abs", "torch.complex(a, b).abs()", P),
    Case("complex_angle", "torch.complex(a, b).angle()", P),
    Case("complex_sgn", "torch.view_as_real(torch.complex(a, b).sgn())", P),
    Case("polar", "torch.view_as_real(torch.polar(a, b))", P, domain=(0.5, 2.0)),
    Case("view_as_complex", "torch.view_as_real(torch.view_as_complex(a).exp())", {"a": (3, 2)}),
    Case("conj", "torch.view_as_real(torch.complex(a, b).conj().resolve_conj() * 2)", P),
    Case(
        "conj_physical",
        "torch.view_as_real(torch.complex(a, b).conj_physical() * torch.complex(a, a))",
        P,
    ),
    Case("real_imag", "torch.complex(a, b).imag * torch.complex(b, a).real", P),
    Case("complex_matmul", "torch.view_as_real(torch.complex(a, b) @ torch.complex(b, a).mT)", P),
    Case(
        "complex_div_exp",
        "torch.view_as_real((torch.complex(a, b) / torch.complex(b, a)).exp().sigmoid())",
        P,
        domain=(0.5, 2.0),
    ),
    Case("complex_mixed_real", "torch.view_as_real(a * 1j + b * torch.complex(b, a))", P),
    Case("complex_sum_mean", "torch.view_as_real(torch.complex(a, b).sum(0) / 3 - 1j)", P),
    Case(
        "complex_solve_det",
        "torch.view_as_real(torch.linalg.solve(torch.complex(a, b), torch.complex(b, a)[0]) "
        "* torch.linalg.det(torch.complex(a, b)))",
        {"a": (3, 3), "b": (3, 3)},
    ),
    Case(
        "complex_inv",
        "torch.view_as_real(torch.linalg.inv(torch.complex(a, b)))",
        {"a": (2, 2), "b": (2, 2)},
    ),
    Case("fft_real", "torch.view_as_real(torch.fft.fft(a))", {"a": S}),
    Case("rfft_n", "torch.view_as_real(torch.fft.rfft(a, n=5, norm='ortho'))", {"a": S}),
    Case("ifft_complex", "torch.view_as_real(torch.fft.ifft(torch.complex(a, b)))", P),
    Case("irfft", "torch.fft.irfft(torch.complex(a, b), n=4)", P),
    Case(
        "fft2_complex",
        "torch.view_as_real(torch.fft.fft2(torch.complex(a, b), norm='forward'))",
        P,
    ),
    Case("rfft2_irfft2", "torch.fft.irfft2(torch.fft.rfft2(a) * 2j, s=(2, 3))", {"a": S}),
    Case("rfft_complex_error", "torch.fft.rfft(torch.complex(a, b))", P, raises=True),
    # gradcheck=False: forward-mode AD has no jvp for eig (its rows would fail there);
    # tests/engine/test_complex.py checks these gradients against finite differences
    Case("eigvals", "torch.view_as_real(torch.linalg.eigvals(a))", {"a": (3, 3)}, gradcheck=False),
    Case(
        "eig_abs",
        "torch.linalg.eig(a)[1].abs() * torch.linalg.eig(a)[0].abs()",
        {"a": (3, 3)},
        gradcheck=False,
    ),
    Case("complex_lt", "torch.complex(a, b) < 0", P, raises=True),
    Case("view_as_complex_bad", "torch.view_as_complex(a)", {"a": (2, 3)}, raises=True),
]
