"""Rows for engine/ops/linalg.py and engine/ops/matmul.py (matmul's dispatch graphs)."""

from tests.engine.cases import Case

F64 = "dtype=torch.float64"
# operands without requires_grad: matmul's dispatch depends on which side needs a gradient
CONST = (
    f"B = torch.arange(12, {F64}).reshape(3, 4) / 10\n"
    f"V = torch.arange(3, {F64}) / 10\n"
    f"B3 = torch.arange(60, {F64}).reshape(5, 3, 4) / 100\n"
)

PRODUCTS = [
    Case("mm", "a.mm(b)", {"a": (2, 3), "b": (3, 4)}),
    Case("mm_fn", "torch.mm(a, b)", {"a": (2, 3), "b": (3, 4)}),
    Case("mv", "torch.mv(a, v)", {"a": (2, 3), "v": (3,)}),
    Case("dot", "torch.dot(v, w)", {"v": (3,), "w": (3,)}),
    Case("bmm", "torch.bmm(a, b)", {"a": (2, 2, 3), "b": (2, 3, 4)}),
    Case("bmm_one_side", "a.bmm(B3[:2])", {"a": (2, 2, 3)}, setup=CONST),
    Case("addmm", "torch.addmm(c, a, b)", {"c": (2, 4), "a": (2, 3), "b": (3, 4)}),
    Case(
        "addmm_beta_alpha_broadcast",
        "torch.addmm(c, a, b, beta=2, alpha=3)",
        {"c": (4,), "a": (2, 3), "b": (3, 4)},
    ),
    Case("addmm_method", "c.addmm(a, b, alpha=0.5)", {"c": (1, 4), "a": (2, 3), "b": (3, 4)}),
    Case("outer", "torch.outer(v, w)", {"v": (3,), "w": (2,)}),
    Case("outer_method", "v.outer(w)", {"v": (2,), "w": (3,)}),
]

MATMUL = [
    Case("matmul_2d_2d", "a @ b", {"a": (2, 3), "b": (3, 4)}),
    Case("matmul_2d_1d", "a @ v", {"a": (2, 3), "v": (3,)}),
    Case("matmul_1d_1d", "torch.matmul(v, w)", {"v": (3,), "w": (3,)}),
    Case("matmul_1d_2d", "v @ b", {"v": (3,), "b": (3, 4)}),
    Case("matmul_3d_3d", "a @ b", {"a": (2, 2, 3), "b": (2, 3, 4)}),
    Case("matmul_3d_2d_fold", "a @ b", {"a": (5, 2, 3), "b": (3, 4)}),
    Case("matmul_4d_2d_fold", "a.matmul(b)", {"a": (2, 5, 2, 3), "b": (3, 4)}),
    Case("matmul_2d_3d_fold", "a @ b", {"a": (2, 3), "b": (5, 3, 4)}),
    Case("matmul_3d_1d", "a @ v", {"a": (5, 2, 3), "v": (3,)}),
    Case("matmul_1d_3d", "v @ b", {"v": (3,), "b": (5, 3, 4)}),
    Case("matmul_batch_one_left", "a @ b", {"a": (1, 2, 3), "b": (5, 3, 4)}),
    Case("matmul_batch_one_right", "a @ b", {"a": (5, 2, 3), "b": (1, 3, 4)}),
    Case("matmul_batch_broadcast", "a @ b", {"a": (4, 1, 2, 3), "b": (5, 3, 4)}),
    Case("matmul_4d_4d_broadcast", "a @ b", {"a": (2, 1, 2, 3), "b": (1, 5, 3, 4)}),
    Case("matmul_4d_4d", "a @ b", {"a": (2, 5, 2, 3), "b": (2, 5, 3, 4)}),
    Case("matmul_3d_const_2d", "a @ B", {"a": (5, 2, 3)}, setup=CONST),
    Case("matmul_const_3d", "V @ b", {"b": (5, 3, 4)}, setup=CONST),
    Case("matmul_2d_const_3d", "a @ B3", {"a": (2, 3)}, setup=CONST),
    Case("matmul_const_2d_3d", "B.t() @ b", {"b": (5, 3, 2)}, setup=CONST),
    Case("matmul_transposed_3d_const", "a.transpose(1, 2) @ B", {"a": (5, 3, 2)}, setup=CONST),
    Case("matmul_transposed_3d_1d", "a.transpose(1, 2) @ v", {"a": (5, 3, 2), "v": (3,)}),
    Case("rmatmul_const", "B.t() @ a", {"a": (3, 2)}, setup=CONST),
]

MORE = [
    Case("vdot", "torch.vdot(v, w)", {"v": (3,), "w": (3,)}),
    Case("addmv", "torch.addmv(c, a, v, beta=2, alpha=0.5)", {"c": (2,), "a": (2, 3), "v": (3,)}),
    Case("addmv_broadcast", "c.addmv(a, v)", {"c": (1,), "a": (2, 3), "v": (3,)}),
    Case("trace", "torch.trace(a)", {"a": (3, 3)}),
    Case("trace_rectangular", "a.trace()", {"a": (2, 3)}),
    Case("matrix_norm", "torch.linalg.matrix_norm(a)", {"a": (2, 3)}),
    Case("matrix_norm_batch", "torch.linalg.matrix_norm(a, keepdim=True)", {"a": (2, 2, 3)}),
    Case("vecdot", "torch.linalg.vecdot(a, b)", {"a": (2, 3), "b": (3,)}),
    Case("linalg_vector_norm_ns", "torch.linalg.vector_norm(a, 1, dim=0)", {"a": (2, 3)}),
]

PRODUCTS_MORE = [
    Case("cross_dim", "torch.cross(a, b, dim=1)", {"a": (2, 3), "b": (2, 3)}),
    Case("linalg_cross_broadcast", "torch.linalg.cross(a, b)", {"a": (2, 3), "b": (1, 3)}),
    Case("cross_method_dim0", "a.cross(b, dim=0)", {"a": (3, 2), "b": (3, 2)}),
    Case("cross_bad_size", "torch.linalg.cross(a, b)", {"a": (2, 2), "b": (2, 2)}, raises=True),
    Case(
        "tensordot_dims_lists", "torch.tensordot(a, b, dims=([1], [1]))", {"a": (2, 3), "b": (4, 3)}
    ),
    Case("tensordot_int", "torch.tensordot(a, b, dims=2)", {"a": (2, 3, 4), "b": (3, 4, 5)}),
    Case("tensordot_full", "torch.tensordot(a, b)", {"a": (2, 3), "b": (2, 3)}),
    Case("tensordot_mismatch", "torch.tensordot(a, b, 1)", {"a": (2, 3), "b": (4, 3)}, raises=True),
    Case("inner_1d", "torch.inner(v, w)", {"v": (3,), "w": (3,)}),
    Case("inner_2d", "torch.inner(a, b)", {"a": (2, 3), "b": (4, 3)}),
    Case("kron", "torch.kron(a, b)", {"a": (2, 3), "b": (2, 2)}),
    Case("kron_mixed_dims", "a.kron(v)", {"a": (2, 2), "v": (3,)}),
    Case(
        "baddbmm",
        "torch.baddbmm(c, a, b, beta=0.5, alpha=2)",
        {"c": (2, 2, 4), "a": (2, 2, 3), "b": (2, 3, 4)},
    ),
    Case("baddbmm_broadcast", "c.baddbmm(a, b)", {"c": (4,), "a": (2, 2, 3), "b": (2, 3, 4)}),
    Case("addr", "torch.addr(c, v, w, beta=2, alpha=3)", {"c": (2, 3), "v": (2,), "w": (3,)}),
    Case(
        "addbmm",
        "torch.addbmm(c, a, b, beta=0.5, alpha=2)",
        {"c": (2, 4), "a": (3, 2, 3), "b": (3, 3, 4)},
    ),
    Case("addbmm_broadcast", "c.addbmm(a, b)", {"c": (4,), "a": (2, 2, 3), "b": (2, 3, 4)}),
    Case(
        "addbmm_beta0",
        "torch.addbmm(c, a, b, beta=0)",
        {"c": (2, 4), "a": (1, 2, 3), "b": (1, 3, 4)},
    ),
    Case(
        "addbmm_",
        "c.clone().addbmm_(a, b, alpha=0.5)",
        {"c": (2, 4), "a": (2, 2, 3), "b": (2, 3, 4)},
    ),
    Case(
        "addbmm_bad_self",
        "torch.addbmm(c, a, b)",
        {"c": (3, 4), "a": (2, 2, 3), "b": (2, 3, 4)},
        raises=True,
    ),
    Case(
        "addbmm_batches",
        "torch.addbmm(c, a, b)",
        {"c": (2, 4), "a": (2, 2, 3), "b": (3, 3, 4)},
        raises=True,
    ),
    Case(
        "addbmm_2d", "torch.addbmm(c, a, b)", {"c": (2, 4), "a": (2, 3), "b": (3, 4)}, raises=True
    ),
    Case(
        "multi_dot_three",
        "torch.linalg.multi_dot([a, b, c])",
        {"a": (2, 3), "b": (3, 4), "c": (4, 2)},
    ),
    Case(
        "multi_dot_vectors",
        "torch.linalg.multi_dot([v, b, w])",
        {"v": (3,), "b": (3, 4), "w": (4,)},
    ),
    Case(
        "multi_dot_chain",
        "torch.linalg.multi_dot([a, b, c, d])",
        {"a": (5, 2), "b": (2, 6), "c": (6, 3), "d": (3, 4)},
    ),
]

# well-conditioned matrices: the identity plus a small input
EYE = "I = torch.eye(3, dtype=torch.float64)\n"
SQUARE = [
    Case("inv", "torch.linalg.inv(I * 2 + a)", {"a": (3, 3)}, setup=EYE, domain=(-0.5, 0.5)),
    Case(
        "inverse_batched", "(I * 2 + a).inverse()", {"a": (2, 3, 3)}, setup=EYE, domain=(-0.5, 0.5)
    ),
    Case("det", "torch.linalg.det(I * 2 + a)", {"a": (3, 3)}, setup=EYE, domain=(-0.5, 0.5)),
    Case("det_method_batched", "(I + a).det()", {"a": (2, 3, 3)}, setup=EYE, domain=(-0.5, 0.5)),
    Case(
        "solve_vector",
        "torch.linalg.solve(I * 2 + a, b)",
        {"a": (3, 3), "b": (3,)},
        setup=EYE,
        domain=(-0.5, 0.5),
    ),
    Case(
        "solve_matrix",
        "torch.linalg.solve(I * 2 + a, b)",
        {"a": (3, 3), "b": (3, 2)},
        setup=EYE,
        domain=(-0.5, 0.5),
    ),
    Case(
        "solve_right",
        "torch.linalg.solve(I * 2 + a, b, left=False)",
        {"a": (3, 3), "b": (2, 3)},
        setup=EYE,
        domain=(-0.5, 0.5),
    ),
    Case("inv_singular", "torch.linalg.inv(a * 0)", {"a": (3, 3)}, raises=True),
    Case("inv_not_square", "torch.linalg.inv(a)", {"a": (2, 3)}, raises=True),
]

EINSUM = [
    Case("einsum_mm", "torch.einsum('ij,jk->ik', a, b)", {"a": (2, 3), "b": (3, 4)}),
    Case("einsum_dot", "torch.einsum('i,i->', v, w)", {"v": (3,), "w": (3,)}),
    Case("einsum_bmm", "torch.einsum('bij,bjk->bik', a, b)", {"a": (2, 2, 3), "b": (2, 3, 4)}),
    Case("einsum_transpose", "torch.einsum('ij->ji', a)", {"a": (2, 3)}),
    Case("einsum_diagonal", "torch.einsum('ii->i', a)", {"a": (3, 3)}),
    Case("einsum_trace_implicit", "torch.einsum('ii', a)", {"a": (3, 3)}),
    Case("einsum_outer", "torch.einsum('i,j->ij', v, w)", {"v": (2,), "w": (3,)}),
    Case("einsum_sum_all", "torch.einsum('ij->', a)", {"a": (2, 3)}),
    Case("einsum_implicit", "torch.einsum('ij,jk', a, b)", {"a": (2, 3), "b": (3, 4)}),
    Case(
        "einsum_ellipsis", "torch.einsum('...ij,...jk->...ik', a, b)", {"a": (5, 2, 3), "b": (3, 4)}
    ),
    Case(
        "einsum_three_operands",
        "torch.einsum('bn,anm,bm->ba', a, b, c)",
        {"a": (2, 3), "b": (4, 3, 5), "c": (2, 5)},
    ),
    Case("einsum_rowwise", "torch.einsum('ij,ij->i', a, b)", {"a": (2, 3), "b": (2, 3)}),
    Case("einsum_one_sided_sum", "torch.einsum('ij,k->i', a, v)", {"a": (2, 3), "v": (4,)}),
    Case(
        "einsum_attention",
        "torch.einsum('bhqd,bhkd->bhqk', q, k)",
        {"q": (2, 2, 3, 4), "k": (2, 2, 5, 4)},
    ),
    Case("einsum_list_operands", "torch.einsum('ij,jk->ik', [a, b])", {"a": (2, 3), "b": (3, 4)}),
]

EINSUM_ERRORS = [
    Case(
        "einsum_size_mismatch",
        "torch.einsum('ij,jk->ik', a, b)",
        {"a": (2, 3), "b": (2, 3)},
        raises=True,
    ),
    Case("einsum_unknown_output", "torch.einsum('ij->k', a)", {"a": (2, 3)}, raises=True),
]

ERRORS = [
    Case("mm_shape_mismatch", "a @ b", {"a": (2, 3), "b": (4, 5)}, raises=True),
    Case("matmul_1d_mismatch", "v @ w", {"v": (3,), "w": (4,)}, raises=True),
    Case("matmul_mv_mismatch", "a @ v", {"a": (2, 3), "v": (4,)}, raises=True),
    Case("matmul_1d_2d_mismatch", "v @ b", {"v": (3,), "b": (4, 5)}, raises=True),
    Case("matmul_bmm_mismatch", "a @ b", {"a": (2, 2, 3), "b": (2, 4, 5)}, raises=True),
    Case("matmul_fold_mismatch", "a @ b", {"a": (2, 2, 3), "b": (4, 5)}, raises=True),
    Case("matmul_batch_mismatch", "a @ b", {"a": (2, 2, 3), "b": (3, 3, 5)}, raises=True),
    Case("matmul_0d", "a @ v", {"a": (), "v": (3,)}, raises=True),
    Case("mm_not_matrix", "torch.mm(a, v)", {"a": (2, 3), "v": (3,)}, raises=True),
    Case("bmm_not_3d", "torch.bmm(a, b)", {"a": (2, 3), "b": (3, 4)}, raises=True),
    Case("mm_dtype_mismatch", "a @ b.float()", {"a": (2, 3), "b": (3, 4)}, raises=True),
    Case("dot_dtype_mismatch", "torch.dot(v, w.float())", {"v": (3,), "w": (3,)}, raises=True),
    Case("dot_2d", "torch.dot(a, v)", {"a": (3, 1), "v": (3,)}, raises=True),
    Case("mv_mismatch", "torch.mv(a, v)", {"a": (2, 3), "v": (4,)}, raises=True),
    Case("outer_2d", "torch.outer(v, a)", {"v": (3,), "a": (2, 2)}, raises=True),
    Case(
        "addmm_bad_self", "torch.addmm(c, a, b)", {"c": (3,), "a": (2, 3), "b": (3, 5)}, raises=True
    ),
]

CASES = PRODUCTS + MATMUL + MORE + PRODUCTS_MORE + SQUARE + EINSUM + EINSUM_ERRORS + ERRORS
