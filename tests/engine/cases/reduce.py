"""Rows for engine/ops/reduce.py, reduce_minmax.py and reduce_stats.py."""

from tests.engine.cases import Case

S = (2, 3)
S3 = (2, 3, 4)
F64 = "dtype=torch.float64"
# Ties with distinct gradient paths: `a - a.detach()` is exactly 0 but has derivative 1, so
# `T + (a - a.detach()) * W` has the values of T and the derivative W.
TIES = (
    f"T = torch.tensor([[1., 3., 3.], [3., 0., 2.]], {F64})\n"
    f"W = torch.tensor([[1., 2., 3.], [4., 5., 6.]], {F64})\n"
)
TIED = "(T + (a - a.detach()) * W)"
# multipliers putting one zero (Z1) or several zeros (Z2) into a product
ZEROS = (
    f"Z1 = torch.tensor([[1., 0., 1.], [1., 1., 1.]], {F64})\n"
    f"Z2 = torch.tensor([[0., 1., 1.], [1., 0., 0.]], {F64})\n"
)
GRAD = "torch.autograd.grad"
NAN = f"N = torch.tensor([[0., float('nan'), 0.], [0., 0., 0.]], {F64})\n"

SUM_MEAN = [
    Case("sum_all", "a.sum()", {"a": S3}),
    Case("sum_dim", "a.sum(1)", {"a": S3}),
    Case("sum_dims_negative", "a.sum((0, -1))", {"a": S3}),
    Case("sum_keepdim_list", "torch.sum(a, [0, 2], keepdim=True)", {"a": S3}),
    Case("sum_dim_none", "a.sum(dim=None)", {"a": S}),
    Case("sum_empty_dims", "a.sum(())", {"a": S}),
    Case("sum_axis_kw", "a.sum(axis=0)", {"a": S}),
    Case("sum_0d", "a.sum()", {"a": ()}),
    Case("sum_0d_dim", "a.sum(0)", {"a": ()}),
    Case("sum_bool", "(a > 0).sum(1)", {"a": S}),
    Case("sum_broadcast_chain", "(a * b).sum(-1, keepdim=True)", {"a": S, "b": (3,)}),
    Case("sum_dim_out_of_range", "a.sum(3)", {"a": S}, raises=True),
    Case("sum_repeated_dim", "a.sum((0, 0))", {"a": S}, raises=True),
    Case("nansum", "a.nansum()", {"a": S}),
    Case("nansum_dim", "torch.nansum(a, 1)", {"a": S}),
    Case("nansum_nan", "(a + N).nansum(1)", {"a": S}, setup=NAN, gradcheck=False),
    Case("mean_all", "a.mean()", {"a": S3}),
    Case("mean_dim_negative", "a.mean(-1)", {"a": S3}),
    Case("mean_keepdim", "torch.mean(a, (0, 1), True)", {"a": S3}),
    Case("mean_list", "a.mean([0, 2])", {"a": S3}),
    Case("mean_int_raises", "torch.tensor([1, 2]).mean()", raises=True),
]

PROD = [
    Case("prod_all", "a.prod()", {"a": S}, domain=(0.5, 1.5)),
    Case("prod_dim", "a.prod(1)", {"a": S3}, domain=(0.5, 1.5)),
    Case("prod_keepdim_negative", "torch.prod(a, -1, keepdim=True)", {"a": S}),
    Case("prod_one_zero", "(a * Z1).prod()", {"a": S}, setup=ZEROS),
    Case("prod_several_zeros", "(a * Z2).prod()", {"a": S}, setup=ZEROS),
    Case("prod_dim_one_zero", "(a * Z1).prod(1)", {"a": S}, setup=ZEROS),
    Case("prod_dim_zeros", "(a * Z2).prod(1, keepdim=True)", {"a": S}, setup=ZEROS),
    Case("prod_dim0_zeros", "(a * Z2).prod(0)", {"a": S}, setup=ZEROS),
    Case("prod_0d", "a.prod()", {"a": ()}),
    Case("prod_int", "(a > 0).prod()", {"a": S}),
]

MINMAX = [
    Case("max_all", "a.max()", {"a": S3}),
    Case("min_all", "torch.min(a)", {"a": S3}),
    Case("max_ties", f"{TIED}.max()", {"a": S}, setup=TIES, gradcheck=False),
    Case("min_ties", f"(-{TIED}).min()", {"a": S}, setup=TIES, gradcheck=False),
    Case("max_dim", "a.max(1)", {"a": S3}),
    Case("max_dim_values", "a.max(dim=-1).values", {"a": S3}),
    Case("max_dim_keepdim", "torch.max(a, 0, keepdim=True)", {"a": S}),
    Case("min_dim", "a.min(-1)", {"a": S}),
    Case("min_dim_indices", "torch.min(a, 1)[1]", {"a": S}),
    Case("max_dim_0d", "a.max(0)", {"a": ()}),
    Case("max_two_tensors", "torch.max(a, b)", {"a": S, "b": S}),
    Case("min_two_tensors", "a.min(b)", {"a": S, "b": (3,)}),
    Case("max_empty_raises", "torch.tensor([]).max()", raises=True),
    Case("max_empty_dim_raises", "torch.zeros(0, 3).max(0)", raises=True),
    Case("max_dim_out_of_range", "a.max(2)", {"a": S}, raises=True),
    Case("amax_all", "a.amax()", {"a": S3}),
    Case("amax_dims", "a.amax((0, -1))", {"a": S3}),
    Case("amin_keepdim", "torch.amin(a, 1, keepdim=True)", {"a": S3}),
    Case("amax_ties", f"{TIED}.amax(1)", {"a": S}, setup=TIES, gradcheck=False),
    Case("amin_ties_all", f"(-{TIED}).amin()", {"a": S}, setup=TIES, gradcheck=False),
    Case("amax_empty_raises", "torch.zeros(0, 3).amax(0)", raises=True),
    Case("argmax", "a.argmax()", {"a": S}),
    Case("argmax_dim_keepdim", "a.argmax(1, keepdim=True)", {"a": S}),
    Case("argmin_dim", "torch.argmin(a, dim=0)", {"a": S}),
    Case("argmax_ties", "T.argmax(1)", setup=TIES),
    Case("all_any", "((a > 0).all(), (a > 0).any(1), torch.all(a > -5, dim=0))", {"a": S}),
    Case("any_int", "torch.tensor([[0, 2], [0, 0]]).any(1)"),
    Case("sort", "a.sort(1)", {"a": S3}),
    Case("sort_descending", "torch.sort(a, dim=0, descending=True)", {"a": S}),
    Case("sort_ties", "T.sort(1, descending=True)", setup=TIES),
    Case("sort_stable", "torch.sort(a, stable=True, dim=0)", {"a": S}),
    Case("topk", "a.topk(2)", {"a": S3}),
    Case("topk_smallest", "torch.topk(a, 1, dim=0, largest=False)", {"a": S}),
]

STATS = [
    Case("var_all", "a.var()", {"a": S3}),
    Case("var_dims_biased", "a.var([0, 2], unbiased=False)", {"a": S3}),
    Case("var_keepdim", "a.var(1, keepdim=True)", {"a": S3}),
    Case("var_correction", "torch.var(a, 1, correction=0)", {"a": S}),
    Case("var_positional", "a.var(0, False, True)", {"a": S}),
    Case("var_unbiased_only", "a.var(False)", {"a": S}),
    Case("std_all", "a.std()", {"a": S3}),
    Case("std_dim", "a.std(1)", {"a": S3}),
    Case("std_keepdim_correction", "torch.std(a, 0, keepdim=True, correction=0)", {"a": S}),
    Case("std_zero", "(a - a.detach() + 1).std()", {"a": S}, gradcheck=False),
    Case("var_int_raises", "torch.tensor([1, 2]).var()", raises=True),
    Case("norm", "a.norm()", {"a": S3}),
    Case("norm_p1_dim", "a.norm(1, 1)", {"a": S3}),
    Case("norm_p3", "a.norm(3)", {"a": S}),
    Case("norm_inf", "a.norm(float('inf'))", {"a": S}),
    Case("norm_dim_keepdim", "a.norm(p=2, dim=1, keepdim=True)", {"a": S}),
    Case("norm_fro_dims", "torch.norm(a, dim=(0, 1))", {"a": S3}),
    Case("norm_p0", "a.norm(0)", {"a": S}),
    Case("vector_norm_half", "torch.linalg.vector_norm(a, 0.5, -1)", {"a": S}, domain=(0.5, 2.0)),
    Case("vector_norm_p1_5", "torch.linalg.vector_norm(a, ord=1.5)", {"a": S}),
    Case("vector_norm_neg_inf", "torch.linalg.vector_norm(a, float('-inf'), 1)", {"a": S}),
    Case("linalg_norm", "torch.linalg.norm(a)", {"a": S}),
    Case("norm_at_zero", "(a - a.detach()).norm()", {"a": S}, gradcheck=False),
    Case("norm_p3_at_zero", "(a - a.detach()).norm(3, 1)", {"a": S}, gradcheck=False),
    Case("norm_p1_at_zero", "(a - a.detach()).norm(1)", {"a": S}, gradcheck=False),
    Case("norm_inf_ties", f"{TIED}.norm(float('inf'))", {"a": S}, setup=TIES, gradcheck=False),
    Case("norm_int_raises", "torch.tensor([1, 2]).norm()", raises=True),
    Case("softmax", "a.softmax(1)", {"a": S3}),
    Case("softmax_negative_dim", "torch.softmax(a, -1)", {"a": S}),
    Case("softmax_large", "(a * 1000).softmax(1)", {"a": S}, gradcheck=False),
    Case("softmax_0d", "a.softmax(0)", {"a": ()}),
    Case("log_softmax", "a.log_softmax(0)", {"a": S3}),
    Case("log_softmax_fn", "torch.log_softmax(a, 1)", {"a": S}),
    Case("safe_softmax", "torch._safe_softmax(a, -1)", {"a": S}),
    Case(
        "safe_softmax_masked_row",
        "torch._safe_softmax(a + torch.tensor([[0.0], [float('-inf')]]), 1)",
        {"a": S},
        gradcheck=False,
    ),
    # a dtype converts first (ToCopyBackward0); from float32 so float64 values are exact
    Case(
        "log_softmax_dtype",
        "a.float().log_softmax(1, dtype=torch.float64)",
        {"a": S},
        gradcheck=False,
    ),
    Case(
        "softmax_dtype",
        "torch.softmax(a.float(), 0, dtype=torch.float64)",
        {"a": S},
        gradcheck=False,
    ),
    Case("log_softmax_same_dtype", "a.log_softmax(1, dtype=torch.float64)", {"a": S}),
    Case("log_softmax_large", "(a * 1000).log_softmax(1)", {"a": S}, gradcheck=False),
    Case("logsumexp", "a.logsumexp(1)", {"a": S3}),
    Case("logsumexp_dims_keepdim", "torch.logsumexp(a, (0, 1), keepdim=True)", {"a": S3}),
    Case("logsumexp_large", "(a * 1000).logsumexp(1)", {"a": S}, gradcheck=False),
    Case("cumsum", "a.cumsum(1)", {"a": S3}),
    Case("cumsum_negative_dim", "torch.cumsum(a, dim=-1)", {"a": S}),
    Case("cumsum_int", "(a > 0).cumsum(0)", {"a": S}),
    Case("cumprod", "a.cumprod(1)", {"a": S3}),
    Case("cumprod_zeros", "(a * Z2).cumprod(1)", {"a": S}, setup=ZEROS),
    Case("cummax", "torch.cummax(a, 1)", {"a": S3}),
    Case("logcumsumexp", "torch.logcumsumexp(a, 1)", {"a": S3}),
    Case("logcumsumexp_large", "(a * 500).logcumsumexp(-1)", {"a": S}, gradcheck=False),
    Case("cummin_dim0", "a.cummin(0)", {"a": S}),
    Case("cummax_ties", f"{TIED}.cummax(1)", {"a": S}, setup=TIES, gradcheck=False),
]

EXTRA = [
    Case("median_all", "a.median()", {"a": S3}),
    Case("median_even_count", "a.median()", {"a": (2, 2)}),
    Case("median_ties", f"{TIED}.median()", {"a": S}, setup=TIES, gradcheck=False),
    Case("median_dim", "a.median(1)", {"a": S3}),
    Case("median_dim_keepdim", "torch.median(a, -1, keepdim=True)", {"a": S}),
    Case("nanmedian_all", "(a + N).nanmedian()", {"a": S}, setup=NAN, gradcheck=False),
    Case("nanmedian_dim", "torch.nanmedian(a + N, 1)", {"a": S}, setup=NAN, gradcheck=False),
    Case("renorm_p2", "a.renorm(2, 0, 1.0)", {"a": S3}, domain=(-2.0, 2.0)),
    Case("renorm_p1_dim1", "torch.renorm(a, 1, 1, 0.5)", {"a": S}),
    Case("renorm_inf", "a.renorm(float('inf'), 2, 0.5)", {"a": S3}),
    Case("var_mean", "torch.var_mean(a, 1)", {"a": S3}),
    Case("var_mean_all_biased", "torch.var_mean(a, unbiased=False)", {"a": S}),
    Case("std_mean", "torch.std_mean(a)", {"a": S3}),
    Case("std_mean_dim_keepdim", "torch.std_mean(a, [0, 2], keepdim=True)", {"a": S3}),
    Case("std_mean_std_only", "torch.std_mean(a, 1)[0]", {"a": S}),
    Case("aminmax", "torch.aminmax(a)", {"a": S3}),
    Case("aminmax_dim", "a.aminmax(dim=1, keepdim=True)", {"a": S3}),
    Case("nanmean", "(a + N).nanmean(1)", {"a": S}, setup=NAN, gradcheck=False),
    Case("nanmean_all", "a.nanmean()", {"a": S}),
    Case("count_nonzero", "(a * Z2).count_nonzero(1)", {"a": S}, setup=ZEROS),
    Case("softmax_no_dim", "a.softmax()", {"a": S}, raises=True),
    Case("softmax_dim_none", "torch.softmax(a, dim=None)", {"a": S}, raises=True),
    Case("logsumexp_no_dim", "a.logsumexp()", {"a": S}, raises=True),
    Case("cumsum_no_dim", "torch.cumsum(a)", {"a": S}, raises=True),
    Case("mean_dtype_int_raises", "a.mean(dtype=torch.int64)", {"a": S}, raises=True),
    Case("argsort", "(a.argsort(1), torch.argsort(a, dim=0, descending=True))", {"a": S}),
    Case("cumsum_inplace", "a.clone().cumsum_(1)", {"a": S}),
    # a gradient taken with create_graph shows PyTorch's backward primitives as its grad_fn
    # (the expression differentiates itself, so no numerical check)
    *[
        Case(
            f"{name}_grad_graph",
            f"{GRAD}((({expr}) * W).sum(), a, create_graph=True)[0]",
            {"a": S},
            setup=TIES,
            gradcheck=False,
        )
        for name, expr in [
            ("softmax", "a.softmax(1)"),
            ("log_softmax", "a.log_softmax(-1)"),
            ("sum", "a.sum(1, keepdim=True) * a"),
            ("cumsum", "a.cumsum(1) * a"),
            ("sort", "a.sort(1)[0] * a"),
        ]
    ],
    *[
        Case(
            f"{name}_grad_graph",
            f"{GRAD}({expr}, a, create_graph=True)[0]",
            {"a": S},
            gradcheck=False,
        )
        for name, expr in [
            ("max", "a.max() * a.max()"),
            ("norm", "a.norm() * a.norm()"),
            ("var", "a.var() * a.var()"),
            ("mean", "a.mean() * a.mean()"),
        ]
    ],
]

CASES = SUM_MEAN + PROD + MINMAX + STATS + EXTRA
