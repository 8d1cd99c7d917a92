"""Rows for engine/ops/special_ops.py, special_binary.py and engine/special.py."""

from tests.engine.cases import Case

S = "torch.special."
V = (2, 3)
POS = (0.2, 4.0)
UNIT = (-0.95, 0.95)
A = "a = torch.tensor([0.5, 1.5, 3.0])\n"  # a constant shape parameter (no input gradient)

CASES = [
    Case("lgamma", "torch.lgamma(x)", {"x": V}, POS),
    Case("lgamma_neg", "x.lgamma()", {"x": V}, (-3.9, -3.1)),
    Case("gammaln", S + "gammaln(x)", {"x": V}, POS),
    Case("digamma", "torch.digamma(x)", {"x": V}, POS),
    Case("digamma_neg", S + "psi(x)", {"x": V}, (-2.9, -2.1)),
    Case("polygamma0", "torch.polygamma(0, x)", {"x": V}, POS),
    Case("polygamma1", "x.polygamma(1)", {"x": V}, POS),
    Case("polygamma2", S + "polygamma(2, x)", {"x": V}, POS),
    Case("polygamma3", "torch.polygamma(3, x)", {"x": V}, (0.5, 3.0)),
    Case("polygamma_neg_n", "torch.polygamma(-1, x)", {"x": V}, POS, raises=True),
    Case("mvlgamma", "torch.mvlgamma(x, 3)", {"x": V}, (1.5, 4.0)),
    Case("multigammaln", S + "multigammaln(x, 1)", {"x": V}, POS),
    Case("mvlgamma_p0", "torch.mvlgamma(x, 0)", {"x": V}, POS, raises=True),
    Case("erfinv", "torch.erfinv(x)", {"x": V}, UNIT),
    Case("special_erfinv", S + "erfinv(x)", {"x": V}, UNIT),
    Case("i0", "torch.i0(x)", {"x": V}),
    Case("i0e", S + "i0e(x)", {"x": V}),
    Case("i1", S + "i1(x)", {"x": V}),
    Case("i1e", S + "i1e(x)", {"x": V}),
    Case("erfcx", S + "erfcx(x)", {"x": V}),
    Case("ndtr", S + "ndtr(x)", {"x": V}),
    Case("ndtri", S + "ndtri(x)", {"x": V}, (0.05, 0.95)),
    Case("log_ndtr", S + "log_ndtr(x)", {"x": V}, (-5.0, 3.0)),
    Case("entr", S + "entr(x)", {"x": V}, POS),
    Case("xlog1py", S + "xlog1py(x, y)", {"x": V, "y": (3,)}, POS),
    Case("xlog1py_number_first", S + "xlog1py(2, y)", {"y": V}, POS),
    Case("xlog1py_number_second", S + "xlog1py(x, 0.5)", {"x": V}),
    Case("xlogy_number_first", S + "xlogy(2, y)", {"y": V}, POS),
    Case("xlogy_number_second", S + "xlogy(x, 3.0)", {"x": V}),
    Case("zeta_q", S + "zeta(3.0, q)", {"q": V}, POS),
    Case("zeta_x", S + "zeta(x, 2.0)", {"x": V}, POS, gradcheck=False),
    Case("zeta_tensors", S + "zeta(a + 1, q)", {"q": (3,)}, POS, setup=A),
    Case("gammainc", S + "gammainc(a, x)", {"x": (3,)}, POS, setup=A),
    Case("gammaincc", S + "gammaincc(a, x)", {"x": (2, 3)}, POS, setup=A),
    Case("igamma_method", "a.igamma(x)", {"x": (3,)}, POS, setup=A),
    Case("ldexp", "torch.ldexp(x, e)", {"x": V}, setup="e = torch.tensor([1, 0, 3])\n"),
    # PyTorch's gradient is grad * pow(2, e) in integers: 0 (not 1/4) for e = -2
    Case(
        "ldexp_negative_exponent",
        "torch.ldexp(x, e)",
        {"x": V},
        setup="e = torch.tensor([1, -2, 3])\n",
        gradcheck=False,
    ),
    Case("ldexp_float_exponent", "x.ldexp(y)", {"x": V, "y": (3,)}),
    Case("nextafter", "torch.nextafter(x, y)", {"x": V, "y": V}, gradcheck=False),
    Case("frexp", "torch.frexp(x)", {"x": V}, (0.3, 0.45)),
    Case("bessel_j0", S + "bessel_j0(x)", {"x": V}, gradcheck=False),
    Case("bessel_y1", S + "bessel_y1(x)", {"x": V}, POS, gradcheck=False),
    Case("modified_bessel_k0", S + "modified_bessel_k0(x)", {"x": V}, POS, gradcheck=False),
    Case("spherical_bessel_j0", S + "spherical_bessel_j0(x)", {"x": V}, gradcheck=False),
    Case("airy_ai", S + "airy_ai(x)", {"x": V}, gradcheck=False),
    Case("chebyshev_t", S + "chebyshev_polynomial_t(x, 4)", {"x": V}, UNIT, gradcheck=False),
    Case(
        "hermite_h",
        S + "hermite_polynomial_h(x, n)",
        {"x": V},
        gradcheck=False,
        setup="n = torch.tensor([0, 2, 5])\n",
    ),
    Case("legendre_p", S + "legendre_polynomial_p(x, 3)", {"x": V}, UNIT, gradcheck=False),
    Case("laguerre_l", S + "laguerre_polynomial_l(x, 3)", {"x": V}, gradcheck=False),
    Case(
        "gcd",
        "torch.gcd(a, b)",
        setup="a = torch.tensor([4, -6, 0, 7])\nb = torch.tensor([6, 9, 0, 3])\n",
        gradcheck=False,
    ),
    Case(
        "lcm",
        "torch.lcm(a, b)",
        setup="a = torch.tensor([4, -6, 0, 7])\nb = torch.tensor([6, 9, 5, 3])\n",
        gradcheck=False,
    ),
    Case(
        "gcd_float",
        "torch.gcd(a, a)",
        setup="a = torch.tensor([1.0])\n",
        gradcheck=False,
        raises=True,
    ),
]
