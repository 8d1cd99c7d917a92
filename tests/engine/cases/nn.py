"""Rows for engine/ops/nn_*.py and the composites of torch.nn.functional.

Every differentiable row is also checked numerically and for its second derivative against
PyTorch; `embedding_padding` is not (the padding row gets no gradient by design).
"""

from tests.engine.cases import Case

F = "torch.nn.functional."
S = (2, 3)
IMG = (2, 3, 5, 5)
T = "t = torch.tensor([0, 2, 1, 2])\n"
T_IGN = "t = torch.tensor([0, -100, 1, 2])\n"
BN = "rm = torch.zeros(3, dtype=torch.float64)\nrv = torch.ones(3, dtype=torch.float64)\n"
ONEHOT = "i = torch.tensor([[0, 3], [2, 0]])\n"
W = "W = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64)\n"
Y01 = "y = torch.linspace(0, 1, 12, dtype=torch.float64).view(4, 3)\n"
HOOK = "m = torch.nn.Identity()\nh = m.register_full_backward_hook(lambda mod, gi, go: None)\n"


def _loss(
    name: str, expr: str, setup: str = "", gradcheck: bool = False, **kw: object
) -> list[Case]:
    """One row per reduction."""
    return [
        Case(
            f"{name}_{r}",
            expr.replace("RED", repr(r)),
            {"x": (4, 3)},
            setup=setup,
            gradcheck=gradcheck,
            **kw,  # type: ignore[arg-type]
        )
        for r in ("none", "mean", "sum")
    ]


ACTIVATIONS = [
    Case("gelu", F + "gelu(a)", {"a": S}),
    Case("gelu_tanh", F + "gelu(a, approximate='tanh')", {"a": S}),
    Case("silu", F + "silu(a)", {"a": S}),
    Case("elu", F + "elu(a, alpha=0.5)", {"a": S}),
    Case("selu", F + "selu(a)", {"a": S}),
    Case("celu", F + "celu(a, alpha=2.0)", {"a": S}),
    Case("elu_inplace", F + "elu(a * 1, alpha=0.5, inplace=True)", {"a": S}, gradcheck=True),
    Case("celu_inplace", F + "celu(a * 1, alpha=2.0, inplace=True)", {"a": S}, gradcheck=True),
    Case("selu_inplace", F + "selu(a * 1, inplace=True)", {"a": S}, gradcheck=True),
    Case("leaky_relu", F + "leaky_relu(a, 0.2)", {"a": S}),
    Case("softplus", F + "softplus(a, beta=2.0, threshold=1.0)", {"a": S}),
    Case("hardtanh", F + "hardtanh(a, -0.5, 0.5)", {"a": S}),
    Case("relu6", F + "relu6(a * 4)", {"a": S}),
    Case("relu_inplace", F + "relu(a * 1, inplace=True)", {"a": S}),
    Case("leaky_relu_inplace", F + "leaky_relu(a * 1, 0.1, inplace=True)", {"a": S}),
    Case("softmax_dim", F + "softmax(a, dim=1)", {"a": S}),
    Case("log_softmax_dim", F + "log_softmax(a, dim=0)", {"a": S}),
    Case("sigmoid_f", F + "sigmoid(a)", {"a": S}),
    Case("mish", F + "mish(a)", {"a": S}),
    Case("hardswish", F + "hardswish(a * 3)", {"a": S}),
    Case("hardsigmoid", F + "hardsigmoid(a * 3)", {"a": S}),
    Case("logsigmoid", F + "logsigmoid(a)", {"a": S}),
    Case("threshold", F + "threshold(a, 0.1, 20.0)", {"a": S}),
    Case("softsign", F + "softsign(a)", {"a": S}),
    Case("tanhshrink", F + "tanhshrink(a)", {"a": S}),
    Case("softmin", F + "softmin(a, dim=1)", {"a": S}),
    Case("hardshrink", F + "hardshrink(a, 0.3)", {"a": S}),
    Case("softshrink", F + "softshrink(a, 0.7)", {"a": S}),
    Case("prelu_one", F + "prelu(a, w)", {"a": S, "w": (1,)}),
    Case("prelu_channels", F + "prelu(a, w)", {"a": (2, 3, 2), "w": (3,)}),
    Case("prelu_1d", F + "prelu(a, w)", {"a": (4,), "w": (1,)}),
    Case("prelu_4d", F + "prelu(a, w)", {"a": (2, 2, 1, 2), "w": (2,)}),
]

LINEAR = [
    Case("linear_2d", F + "linear(x, w, b)", {"x": (4, 3), "w": (2, 3), "b": (2,)}),
    Case("linear_2d_nobias", F + "linear(x, w)", {"x": (4, 3), "w": (2, 3)}),
    Case("linear_3d", F + "linear(x, w, b)", {"x": (2, 4, 3), "w": (2, 3), "b": (2,)}),
    Case("linear_3d_nobias", F + "linear(x, w)", {"x": (2, 4, 3), "w": (2, 3)}),
    Case("linear_1d", F + "linear(x, w, b)", {"x": (3,), "w": (2, 3), "b": (2,)}),
    Case(
        "bilinear",
        F + "bilinear(x, y, w, b)",
        {"x": (4, 2), "y": (4, 3), "w": (5, 2, 3), "b": (5,)},
        gradcheck=True,
    ),
    Case("embedding", F + "embedding(i, w)", {"w": (5, 3)}, setup=ONEHOT),
    # the padding row gets no gradient by design: not a numerical derivative
    Case(
        "embedding_padding",
        F + "embedding(i, w, padding_idx=0)",
        {"w": (5, 3)},
        setup=ONEHOT,
        gradcheck=False,
    ),
    Case("dropout_eval", F + "dropout(a, 0.5, training=False)", {"a": S}),
    Case("dropout_p0", F + "dropout(a, 0.0)", {"a": S}),
    Case("dropout_p1", F + "dropout(a, 1.0)", {"a": S}),
    Case("dropout_bad_p", F + "dropout(a, 1.5)", {"a": S}, raises=True),
    Case("one_hot", F + "one_hot(torch.tensor([0, 2, 1]), 4)"),
    Case("one_hot_infer", F + "one_hot(torch.tensor([[0, 2], [1, 1]]))"),
    Case("one_hot_too_small", F + "one_hot(torch.tensor([0, 5]), 3)", raises=True),
    Case("pad_constant", F + "pad(a, (1, 2))", {"a": S}),
    Case("pad_constant_2d", F + "pad(a, (1, 0, 0, 2), value=0.5)", {"a": S}),
    Case("pad_negative", F + "pad(a, (-1, 1))", {"a": S}),
    Case("pad_reflect", F + "pad(a, (2, 1), mode='reflect')", {"a": (2, 3, 4)}),
    Case("pad_reflect_2d", F + "pad(a, (1, 1, 2, 1), mode='reflect')", {"a": (1, 2, 3, 4)}),
    Case("pad_replicate", F + "pad(a, (2, 1), mode='replicate')", {"a": (2, 3, 4)}),
    Case("pad_replicate_2d", F + "pad(a, (1, 2, 2, 1), mode='replicate')", {"a": (1, 2, 3, 4)}),
    Case(
        "pad_reflect_3d", F + "pad(a, (1, 1, 1, 1, 1, 0), mode='reflect')", {"a": (1, 1, 2, 3, 3)}
    ),
    Case(
        "pad_replicate_3d",
        F + "pad(a, (1, 0, 1, 1, 0, 1), mode='replicate')",
        {"a": (1, 1, 2, 2, 3)},
    ),
    Case("normalize", F + "normalize(a)", {"a": (3, 4)}),
    Case("normalize_dim0_p1", F + "normalize(a, p=1.0, dim=0)", {"a": (3, 4)}),
    Case("hooked_module", "m(a * 2)", {"a": S}, setup=HOOK),
]

CONV = [
    Case("conv2d", F + "conv2d(x, w, b)", {"x": IMG, "w": (4, 3, 3, 3), "b": (4,)}, gradcheck=True),
    Case("conv2d_nobias", F + "conv2d(x, w)", {"x": IMG, "w": (4, 3, 3, 3)}, gradcheck=True),
    Case(
        "conv2d_stride_pad",
        F + "conv2d(x, w, b, stride=2, padding=1)",
        {"x": IMG, "w": (2, 3, 3, 2), "b": (2,)},
        gradcheck=True,
    ),
    Case(
        "conv2d_dilation",
        F + "conv2d(x, w, dilation=2, padding=(2, 1))",
        {"x": IMG, "w": (2, 3, 2, 2)},
        gradcheck=True,
    ),
    Case(
        "conv2d_groups",
        F + "conv2d(x, w, b, groups=3)",
        {"x": (1, 6, 4, 4), "w": (3, 2, 2, 2), "b": (3,)},
        gradcheck=True,
    ),
    Case(
        "conv2d_same_even",
        F + "conv2d(x, w, padding='same')",
        {"x": (1, 2, 5, 4), "w": (2, 2, 2, 4)},
        gradcheck=True,
    ),
    Case(
        "conv2d_valid",
        F + "conv2d(x, w, padding='valid')",
        {"x": (1, 2, 4, 4), "w": (1, 2, 3, 3)},
        gradcheck=True,
    ),
    Case(
        "conv2d_unbatched", F + "conv2d(x, w)", {"x": (2, 4, 4), "w": (1, 2, 3, 3)}, gradcheck=True
    ),
    Case("conv2d_bad_channels", F + "conv2d(x, w)", {"x": IMG, "w": (4, 2, 3, 3)}, raises=True),
    Case(
        "conv2d_same_strided",
        F + "conv2d(x, w, stride=2, padding='same')",
        {"x": IMG, "w": (4, 3, 3, 3)},
        raises=True,
    ),
    Case(
        "conv1d",
        F + "conv1d(x, w, b, stride=2, padding=1)",
        {"x": (2, 3, 7), "w": (4, 3, 3), "b": (4,)},
        gradcheck=True,
    ),
    Case(
        "conv1d_dilation_groups",
        F + "conv1d(x, w, dilation=2, groups=2)",
        {"x": (1, 4, 8), "w": (2, 2, 3)},
        gradcheck=True,
    ),
    Case(
        "conv_transpose2d",
        F + "conv_transpose2d(x, w, b)",
        {"x": (2, 3, 4, 4), "w": (3, 2, 3, 3), "b": (2,)},
        gradcheck=True,
    ),
    Case(
        "conv_transpose2d_stride",
        F + "conv_transpose2d(x, w, stride=2, padding=1, output_padding=1)",
        {"x": (1, 2, 3, 3), "w": (2, 3, 3, 3)},
        gradcheck=True,
    ),
    Case(
        "conv_transpose2d_groups",
        F + "conv_transpose2d(x, w, groups=2, dilation=2)",
        {"x": (1, 4, 3, 3), "w": (4, 1, 2, 2)},
        gradcheck=True,
    ),
]

POOL = [
    Case("max_pool2d", F + "max_pool2d(x, 2)", {"x": IMG}),
    Case("max_pool2d_stride_pad", F + "max_pool2d(x, 3, stride=2, padding=1)", {"x": IMG}),
    Case("max_pool2d_ceil", F + "max_pool2d(x, 2, ceil_mode=True)", {"x": IMG}),
    Case("max_pool2d_dilation", F + "max_pool2d(x, 2, stride=1, dilation=2)", {"x": IMG}),
    Case("max_pool2d_indices", F + "max_pool2d(x, 2, return_indices=True)", {"x": IMG}),
    Case("max_pool2d_unbatched", F + "max_pool2d(x, (2, 3))", {"x": (3, 4, 6)}),
    Case("max_pool2d_bad_pad", F + "max_pool2d(x, 2, padding=2)", {"x": IMG}, raises=True),
    Case("avg_pool2d", F + "avg_pool2d(x, 2)", {"x": IMG}),
    Case("max_pool2d_too_small", F + "max_pool2d(x, 4)", {"x": (2, 1, 3)}, raises=True),
    Case("avg_pool2d_too_small", F + "avg_pool2d(x, 2)", {"x": (1, 1, 1, 1)}, raises=True),
    Case(
        "conv2d_kernel_too_big",
        F + "conv2d(x, w)",
        {"x": (1, 1, 2, 2), "w": (1, 1, 3, 3)},
        raises=True,
    ),
    Case(
        "conv1d_kernel_too_big",
        F + "conv1d(x, w, dilation=2)",
        {"x": (1, 1, 4), "w": (1, 1, 3)},
        raises=True,
    ),
    Case("max_pool1d", F + "max_pool1d(x, 3, stride=2, padding=1)", {"x": (2, 3, 7)}),
    Case("avg_pool1d", F + "avg_pool1d(x, 2)", {"x": (2, 3, 7)}),
    Case("adaptive_avg_pool1d", F + "adaptive_avg_pool1d(x, 3)", {"x": (2, 3, 7)}),
    Case("dropout2d_eval", F + "dropout2d(x, 0.5, training=False)", {"x": IMG}),
    Case("avg_pool2d_pad", F + "avg_pool2d(x, 3, stride=2, padding=1)", {"x": IMG}),
    Case(
        "avg_pool2d_no_count_pad", F + "avg_pool2d(x, 3, 2, 1, count_include_pad=False)", {"x": IMG}
    ),
    Case("avg_pool2d_ceil", F + "avg_pool2d(x, 2, ceil_mode=True)", {"x": IMG}),
    Case(
        "avg_pool2d_ceil_pad",
        F + "avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False)",
        {"x": (1, 2, 6, 6)},
    ),
    Case("avg_pool2d_divisor", F + "avg_pool2d(x, 2, divisor_override=3)", {"x": IMG}),
    Case("adaptive_avg_pool2d", F + "adaptive_avg_pool2d(x, (2, 3))", {"x": IMG}),
    Case("adaptive_avg_pool2d_1", F + "adaptive_avg_pool2d(x, 1)", {"x": IMG}),
    Case("adaptive_avg_pool2d_none", F + "adaptive_avg_pool2d(x, (3, None))", {"x": (1, 2, 7, 4)}),
]

NORM = [
    Case(
        "batch_norm_train",
        F + "batch_norm(x, rm, rv, w, b, training=True)",
        {"x": IMG, "w": (3,), "b": (3,)},
        setup=BN,
        gradcheck=True,
    ),
    Case(
        "batch_norm_stats",
        "(" + F + "batch_norm(x, rm, rv, training=True, momentum=0.3), rm, rv)",
        {"x": (4, 3)},
        setup=BN,
        gradcheck=True,
    ),
    Case(
        "batch_norm_eval",
        F + "batch_norm(x, rm + 0.5, rv * 2, w, b)",
        {"x": IMG, "w": (3,), "b": (3,)},
        setup=BN,
        gradcheck=True,
    ),
    Case(
        "batch_norm_no_stats",
        F + "batch_norm(x, None, None, training=True)",
        {"x": (4, 3, 2)},
        gradcheck=True,
    ),
    Case(
        "batch_norm_one_value",
        F + "batch_norm(x, rm, rv, training=True)",
        {"x": (1, 3)},
        setup=BN,
        raises=True,
    ),
    Case(
        "layer_norm",
        F + "layer_norm(x, (5, 5), w, b)",
        {"x": IMG, "w": (5, 5), "b": (5, 5)},
        gradcheck=True,
    ),
    Case("layer_norm_noaffine", F + "layer_norm(x, [3])", {"x": (4, 3)}, gradcheck=True),
    Case("layer_norm_bad_shape", F + "layer_norm(x, [4])", {"x": (4, 3)}, raises=True),
    Case(
        "group_norm",
        F + "group_norm(x, 2, w, b)",
        {"x": (2, 4, 3, 3), "w": (4,), "b": (4,)},
        gradcheck=True,
    ),
    Case("group_norm_noaffine", F + "group_norm(x, 3)", {"x": IMG}, gradcheck=True),
]

LOSSES = [
    *_loss(
        "mse",
        F + "mse_loss(x, y, reduction=RED)",
        "y = torch.linspace(-1, 1, 12, dtype=torch.float64).view(4, 3)\n",
        gradcheck=True,
    ),
    *_loss(
        "l1",
        F + "l1_loss(x, y, reduction=RED)",
        "y = torch.linspace(-1, 1, 12, dtype=torch.float64).view(4, 3)\n",
        gradcheck=True,
    ),
    *_loss(
        "smooth_l1",
        F + "smooth_l1_loss(x, y, reduction=RED, beta=0.5)",
        "y = torch.linspace(-1, 1, 12, dtype=torch.float64).view(4, 3)\n",
        gradcheck=True,
    ),
    *_loss(
        "huber",
        F + "huber_loss(x, y, reduction=RED, delta=0.7)",
        "y = torch.linspace(-1, 1, 12, dtype=torch.float64).view(4, 3)\n",
        gradcheck=True,
    ),
    *_loss("nll", F + "nll_loss(x, t, reduction=RED)", T, gradcheck=True),
    *_loss("cross_entropy", F + "cross_entropy(x, t, reduction=RED)", T, gradcheck=True),
    *_loss(
        "cross_entropy_weight",
        F + "cross_entropy(x, t, weight=W, reduction=RED)",
        T + W,
        gradcheck=True,
    ),
    *_loss("cross_entropy_ignore", F + "cross_entropy(x, t, reduction=RED)", T_IGN, gradcheck=True),
    *_loss(
        "cross_entropy_smooth",
        F + "cross_entropy(x, t, reduction=RED, label_smoothing=0.2)",
        T_IGN,
        gradcheck=True,
    ),
    *_loss(
        "cross_entropy_probs",
        F + "cross_entropy(x, p, reduction=RED)",
        "p = torch.linspace(0.1, 1, 12, dtype=torch.float64).view(4, 3).softmax(1)\n",
        gradcheck=True,
    ),
    *_loss(
        "cross_entropy_probs_smooth",
        F + "cross_entropy(x, p, reduction=RED, label_smoothing=0.1)",
        "p = torch.linspace(0.1, 1, 12, dtype=torch.float64).view(4, 3).softmax(1)\n",
        gradcheck=True,
    ),
    *_loss(
        "bce",
        F + "binary_cross_entropy(x.sigmoid(), y, reduction=RED)",
        "y = torch.linspace(0, 1, 12, dtype=torch.float64).view(4, 3)\n",
        gradcheck=True,
    ),
    *_loss(
        "bce_weight",
        F + "binary_cross_entropy(x.sigmoid(), y, weight=W, reduction=RED)",
        Y01 + W,
        gradcheck=True,
    ),
    *_loss(
        "bce_logits",
        F + "binary_cross_entropy_with_logits(x, y, reduction=RED)",
        "y = torch.linspace(0, 1, 12, dtype=torch.float64).view(4, 3)\n",
        gradcheck=True,
    ),
    *_loss(
        "bce_logits_pos_weight",
        F + "binary_cross_entropy_with_logits(x, y, pos_weight=W, reduction=RED)",
        Y01 + W,
        gradcheck=True,
    ),
    # reduction='mean' warns (and warnings are errors here): rows for 'none' and 'sum' only
    *_loss(
        "kl_div",
        F + "kl_div(x.log_softmax(1), p, reduction=RED)",
        "p = torch.linspace(0.1, 1, 12, dtype=torch.float64).view(4, 3).softmax(1)\n",
        gradcheck=True,
    )[::2],
    *_loss(
        "kl_div_log_target",
        F + "kl_div(x, p, reduction=RED, log_target=True)",
        "p = torch.linspace(-2, -0.5, 12, dtype=torch.float64).view(4, 3)\n",
        gradcheck=True,
    )[::2],
    Case(
        "kl_div_batchmean",
        F + "kl_div(x, p, reduction='batchmean')",
        {"x": (4, 3)},
        setup="p = torch.linspace(0.1, 1, 12, dtype=torch.float64).view(4, 3)\n",
        gradcheck=True,
    ),
    Case("nll_1d", F + "nll_loss(x, torch.tensor(1))", {"x": (3,)}, gradcheck=True),
    Case(
        "nll_3d",
        F + "nll_loss(x, torch.tensor([[0, 1], [2, 2]]), reduction='none')",
        {"x": (2, 3, 2)},
        gradcheck=True,
    ),
    Case(
        "nll_spatial",
        F + "nll_loss(x, torch.tensor([[0, 1], [2, 2]]).view(2, 2, 1))",
        {"x": (2, 3, 2, 1)},
        gradcheck=True,
    ),
    Case(
        "nll_bad_target", F + "nll_loss(x, torch.tensor([0, 3, 1, 2]))", {"x": (4, 3)}, raises=True
    ),
    Case(
        "smooth_l1_beta0",
        F + "smooth_l1_loss(x, torch.zeros(4, 3, dtype=torch.float64), beta=0.0)",
        {"x": (4, 3)},
        gradcheck=True,
    ),
]

CASES = ACTIVATIONS + LINEAR + CONV + POOL + NORM + LOSSES
