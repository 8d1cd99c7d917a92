"""Rows for engine/ops/linalg_decomp.py, linalg_pinv.py, linalg_norms.py, linalg_triangular.py,
stats_quantile.py, integrate_dist.py, block_diag.py, copysign.py and pointwise_binary.py's
logaddexp2.

Singular vectors, eigenvectors and Q are unique only up to sign, so rows use their `abs()`.
"""

from tests.engine.cases import Case

EYE = "I = torch.eye(3, dtype=torch.float64)\n"
SYM = "(a + a.mT)"
SPD = "(a @ a.mT + I)"

DECOMP = [
    Case("svdvals_tall", "torch.linalg.svdvals(a)", {"a": (3, 2)}),
    Case("svd_U_tall", "torch.linalg.svd(a, full_matrices=False)[0].abs()", {"a": (3, 2)}),
    Case("svd_Vh_wide", "torch.linalg.svd(a, full_matrices=False).Vh.abs()", {"a": (2, 3)}),
    Case(
        "svd_square_all",
        "(lambda r: r.U.abs() @ torch.diag(r.S) @ r.Vh.abs())(torch.linalg.svd(a))",
        {"a": (3, 3)},
    ),
    Case("svd_batched_S", "torch.linalg.svd(a, full_matrices=False).S", {"a": (2, 3, 2)}),
    Case("torch_svd_V", "torch.svd(a).V.abs()", {"a": (3, 2)}),
    Case("eigvalsh", f"torch.linalg.eigvalsh({SYM})", {"a": (3, 3)}),
    Case("eigh_vectors", f"torch.linalg.eigh({SYM}).eigenvectors.abs()", {"a": (3, 3)}),
    Case(
        "eigh_both",
        f"(lambda r: r[0].unsqueeze(-2) * r[1].abs())(torch.linalg.eigh({SYM}))",
        {"a": (2, 3, 3)},
    ),
    Case("qr_tall_Q", "torch.linalg.qr(a).Q.abs()", {"a": (3, 2)}),
    Case("qr_square_R", "torch.linalg.qr(a)[1].abs()", {"a": (3, 3)}),
    Case("qr_both", "(lambda r: r.Q.abs() @ r.R.abs())(torch.linalg.qr(a))", {"a": (4, 3)}),
    Case("cholesky", f"torch.linalg.cholesky({SPD})", {"a": (3, 3)}, setup=EYE),
    Case("cholesky_upper", f"torch.linalg.cholesky({SPD}, upper=True)", {"a": (3, 3)}, setup=EYE),
    Case("slogdet", "torch.linalg.slogdet(I * 2 + a)[1]", {"a": (3, 3)}, setup=EYE),
    Case("slogdet_sign", "torch.linalg.slogdet(I * 2 + a).sign * a", {"a": (3, 3)}, setup=EYE),
    Case("logdet", f"torch.logdet({SPD})", {"a": (3, 3)}, setup=EYE),
    Case("pinv_tall", "torch.linalg.pinv(a)", {"a": (3, 2)}),
    Case("pinv_wide", "torch.linalg.pinv(a)", {"a": (2, 3)}),
    Case("pinverse", "torch.pinverse(a)", {"a": (3, 3)}),
    Case(
        "lstsq_square",
        "torch.linalg.lstsq(I * 2 + a, b).solution",
        {"a": (3, 3), "b": (3, 2)},
        setup=EYE,
    ),
    Case("lstsq_tall", "torch.linalg.lstsq(a, b).solution", {"a": (4, 2), "b": (4, 3)}),
]

STATS = [
    Case("cov", "torch.cov(a)", {"a": (2, 4)}),
    Case("cov_vector", "torch.cov(a, correction=0)", {"a": (5,)}),
    Case("corrcoef", "torch.corrcoef(a)", {"a": (3, 4)}),
    Case("quantile", "torch.quantile(a, 0.3)", {"a": (2, 3)}),
    Case("quantile_dim", "a.quantile(0.75, dim=1)", {"a": (2, 5)}),
    Case(
        "quantile_vector_q",
        "torch.quantile(a, torch.tensor([0.2, 0.9], dtype=torch.float64), dim=0, keepdim=True)",
        {"a": (4, 2)},
    ),
    Case("quantile_nearest", "torch.quantile(a, 0.4, interpolation='nearest')", {"a": (6,)}),
    Case("nanquantile", "torch.nanquantile(a, 0.5, dim=-1)", {"a": (3, 4)}),
]

ERRORS = [
    Case(
        "cholesky_not_pd",
        "torch.linalg.cholesky(a - 10 * I)",
        {"a": (3, 3)},
        setup=EYE,
        raises=True,
    ),
    Case("geqrf_no_derivative", "torch.geqrf(a).a", {"a": (4, 3)}, gradcheck=False),
    Case("householder_product", "torch.linalg.householder_product(a, t)", {"a": (4, 3), "t": (2,)}),
    Case("orgqr_batched", "torch.orgqr(a, t)", {"a": (2, 3, 3), "t": (2, 3)}),
    Case("qr_bad_mode", "torch.linalg.qr(a, mode='full')", {"a": (3, 3)}, raises=True),
    Case("svd_1d", "torch.linalg.svd(a)", {"a": (3,)}, raises=True),
    Case("quantile_q_range", "torch.quantile(a, 1.5)", {"a": (3,)}, raises=True),
    Case("cov_3d", "torch.cov(a)", {"a": (2, 2, 2)}, raises=True),
]

NORMS = [
    Case("matrix_norm_nuc", "torch.linalg.matrix_norm(a, 'nuc')", {"a": (3, 2)}),
    Case("matrix_norm_2", "torch.linalg.matrix_norm(a, 2)", {"a": (2, 3, 2)}),
    Case(
        "matrix_norm_neg2_keepdim", "torch.linalg.matrix_norm(a, -2, keepdim=True)", {"a": (3, 3)}
    ),
    Case("matrix_norm_1", "torch.linalg.matrix_norm(a, 1)", {"a": (3, 2)}),
    Case(
        "matrix_norm_inf_dims",
        "torch.linalg.matrix_norm(a, float('inf'), dim=(0, 2))",
        {"a": (2, 3, 4)},
    ),
    Case("linalg_norm_ord2", "torch.linalg.norm(a, 2)", {"a": (3, 2)}),
    Case("norm_nuc", "torch.norm(a, p='nuc')", {"a": (2, 3)}),
    Case("cond", "torch.linalg.cond(I * 2 + a)", {"a": (3, 3)}, setup=EYE),
    # PyTorch's own backward fails here (ATen fills the saved inverse in place)
    Case(
        "cond_fro", "torch.linalg.cond(I * 2 + a, 'fro')", {"a": (3, 3)}, setup=EYE, gradcheck=False
    ),
]

INTEGRATE_DIST = [
    Case("trapezoid", "torch.trapezoid(a)", {"a": (2, 5)}),
    Case(
        "trapezoid_x",
        "torch.trapezoid(a, torch.tensor([0.0, 1.0, 3.0], dtype=torch.float64))",
        {"a": (3,)},
    ),
    Case("cumulative_trapezoid", "torch.cumulative_trapezoid(a, dx=0.5, dim=0)", {"a": (4, 2)}),
    Case("cdist", "torch.cdist(a, b)", {"a": (3, 2), "b": (4, 2)}),
    Case("cdist_p1_batched", "torch.cdist(a, b, p=1)", {"a": (2, 3, 2), "b": (2, 2, 2)}),
    Case("cdist_p3", "torch.cdist(a, b, p=3.0)", {"a": (3, 2), "b": (2, 2)}),
    Case("dist", "torch.dist(a, b)", {"a": (2, 3), "b": (3,)}),
    Case("dist_p3_method", "a.dist(b, 3)", {"a": (4,), "b": (4,)}),
    Case("dist_inf", "torch.dist(a, b, float('inf'))", {"a": (2, 2), "b": (2, 2)}),
    Case("block_diag", "torch.block_diag(a, b, c)", {"a": (2, 3), "b": (2,), "c": ()}),
    Case("block_diag_one", "torch.block_diag(a)", {"a": (3, 2)}),
    Case("diagflat", "torch.diagflat(a, 1)", {"a": (2, 2)}),
    Case("logaddexp2", "torch.logaddexp2(a, b)", {"a": (2, 3), "b": (3,)}),
    Case("copysign", "torch.copysign(a, b)", {"a": (2, 3), "b": (2, 1)}),
    Case("copysign_scalar", "a.copysign(-1.0)", {"a": (3,)}),
    Case("cdist_bad_cols", "torch.cdist(a, b)", {"a": (3, 2), "b": (4, 3)}, raises=True),
]

TRIANGULAR = [
    Case(
        "solve_triangular_lower",
        "torch.linalg.solve_triangular(I * 2 + a, b, upper=False)",
        {"a": (3, 3), "b": (3, 2)},
        setup=EYE,
        domain=(-0.5, 0.5),
    ),
    Case(
        "solve_triangular_right_unit",
        "torch.linalg.solve_triangular(I * 2 + a, b, upper=True, left=False, unitriangular=True)",
        {"a": (3, 3), "b": (2, 3)},
        setup=EYE,
        domain=(-0.5, 0.5),
    ),
    Case(
        "cholesky_solve",
        f"torch.cholesky_solve(b, torch.linalg.cholesky({SPD}))",
        {"a": (3, 3), "b": (3, 2)},
        setup=EYE,
    ),
    Case(
        "cholesky_solve_upper",
        f"torch.cholesky_solve(b, torch.linalg.cholesky({SPD}, upper=True), upper=True)",
        {"a": (3, 3), "b": (3, 1)},
        setup=EYE,
    ),
]

# torch.cholesky warns once per process (deprecated): silenced, so the row is order-independent
QUIET_CHOL = (
    "import warnings\n"
    "def chol(x, upper=False):\n"
    "    with warnings.catch_warnings():\n"
    "        warnings.simplefilter('ignore')\n"
    "        return torch.cholesky(x, upper=upper)\n"
)
QUIET_TRI = "import warnings\nwarnings.simplefilter('ignore')\n"  # deprecated: warns once
TRIANGULAR += [
    Case(
        "triangular_solve_upper",
        "torch.triangular_solve(b, I * 2 + a).solution",
        {"a": (3, 3), "b": (3, 2)},
        setup=EYE + QUIET_TRI,
        domain=(-0.5, 0.5),
    ),
    Case(
        "triangular_solve_lower_transposed_unit",
        "(lambda r: r.solution * 2 + r.cloned_coefficient.sum())"
        "(torch.triangular_solve(b, I * 2 + a, upper=False, transpose=True, unitriangular=True))",
        {"a": (3, 3), "b": (3, 2)},
        setup=EYE + QUIET_TRI,
        domain=(-0.5, 0.5),
    ),
    Case(
        "triangular_solve_batched",
        "torch.triangular_solve(b, I * 2 + a, upper=True)[0]",
        {"a": (2, 3, 3), "b": (3, 1)},
        setup=EYE + QUIET_TRI,
        domain=(-0.5, 0.5),
    ),
    Case(
        "triangular_solve_vector",
        "torch.triangular_solve(b, I * 2 + a)",
        {"a": (3, 3), "b": (3,)},
        setup=EYE + QUIET_TRI,
        raises=True,
    ),
    Case(
        "cholesky_inverse",
        f"torch.cholesky_inverse(torch.linalg.cholesky({SPD}))",
        {"a": (3, 3)},
        setup=EYE,
    ),
    Case(
        "cholesky_inverse_upper",
        f"torch.linalg.cholesky({SPD}, upper=True).cholesky_inverse(upper=True)",
        {"a": (2, 3, 3)},
        setup=EYE,
    ),
    Case(
        "cholesky_inverse_factor",
        "torch.cholesky_inverse(I + a.tril())",
        {"a": (3, 3)},
        setup=EYE,
        domain=(0.5, 1.5),
    ),
    Case("torch_cholesky", f"chol({SPD})", {"a": (3, 3)}, setup=EYE + QUIET_CHOL),
    Case("torch_cholesky_upper", f"chol({SPD}, True)", {"a": (3, 3)}, setup=EYE + QUIET_CHOL),
]

CASES = DECOMP + STATS + NORMS + INTEGRATE_DIST + TRIANGULAR + ERRORS
