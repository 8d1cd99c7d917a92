"""Rows for the 3-d convolution and pooling ops (engine/ops/nn_conv.py, nn_pool.py,
nn_pool_adaptive.py), adaptive max pooling and max unpooling in every dimension."""

from tests.engine.cases import Case

F = "torch.nn.functional."
VOL = (2, 2, 4, 4, 4)
# indices of a 2x pooling of a (1, 1, 4, 4) plane (one per window, some repeated rows)
IDX2 = "i = torch.tensor([[[[5, 2], [8, 15]]]])\n"
IDX3 = "i = torch.tensor([[[[[0, 3], [13, 14]], [[40, 23], [58, 63]]]]])\n"

CASES = [
    Case("conv3d", F + "conv3d(x, w, b)", {"x": VOL, "w": (3, 2, 2, 2, 2), "b": (3,)}),
    Case(
        "conv3d_stride_pad_dil",
        F + "conv3d(x, w, stride=(1, 2, 1), padding=1, dilation=(2, 1, 1))",
        {"x": VOL, "w": (2, 2, 2, 2, 2)},
    ),
    Case("conv3d_groups", F + "conv3d(x, w, groups=2)", {"x": VOL, "w": (4, 1, 2, 1, 2)}),
    Case("conv3d_same", F + "conv3d(x, w, padding='same')", {"x": VOL, "w": (1, 2, 2, 3, 2)}),
    Case("conv3d_unbatched", F + "conv3d(x, w)", {"x": (2, 3, 3, 3), "w": (1, 2, 2, 2, 2)}),
    Case("conv3d_bad_dims", F + "conv3d(x, w)", {"x": (2, 3), "w": (1, 2, 2, 2, 2)}, raises=True),
    Case(
        "conv3d_too_small",
        F + "conv3d(x, w)",
        {"x": (1, 2, 2, 2, 2), "w": (1, 2, 3, 3, 3)},
        raises=True,
    ),
    Case(
        "conv_transpose3d",
        F + "conv_transpose3d(x, w, b, stride=2, padding=1, output_padding=1)",
        {"x": (1, 2, 3, 3, 2), "w": (2, 3, 2, 2, 2), "b": (3,)},
    ),
    Case(
        "conv_transpose3d_groups",
        F + "conv_transpose3d(x, w, groups=2, dilation=2)",
        {"x": (1, 2, 2, 2, 2), "w": (2, 2, 2, 1, 2)},
    ),
    Case("max_pool3d", F + "max_pool3d(x, 2)", {"x": VOL}),
    Case("max_pool3d_indices", F + "max_pool3d(x, 2, return_indices=True)[1]", {"x": VOL}),
    Case(
        "max_pool3d_ceil_dil",
        F + "max_pool3d(x, 3, stride=2, padding=1, dilation=(1, 2, 1), ceil_mode=True)",
        {"x": (1, 2, 5, 5, 5)},
    ),
    Case("max_pool3d_unbatched", F + "max_pool3d(x, (2, 1, 2))", {"x": (2, 4, 3, 4)}),
    Case("max_pool3d_bad", F + "max_pool3d(x, 2)", {"x": (3, 4)}, raises=True),
    Case("max_pool3d_pad_big", F + "max_pool3d(x, 2, padding=2)", {"x": VOL}, raises=True),
    Case("avg_pool3d", F + "avg_pool3d(x, 2)", {"x": VOL}),
    Case(
        "avg_pool3d_pad_ceil",
        F + "avg_pool3d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)",
        {"x": (1, 2, 5, 5, 5)},
    ),
    Case("avg_pool3d_divisor", F + "avg_pool3d(x, 2, 1, divisor_override=3)", {"x": VOL}),
    Case("avg_pool3d_small", F + "avg_pool3d(x, 2)", {"x": (1, 1, 1, 4, 4)}, raises=True),
    Case("adaptive_avg_pool3d", F + "adaptive_avg_pool3d(x, (3, 2, None))", {"x": VOL}),
    Case("adaptive_avg_pool3d_1", F + "adaptive_avg_pool3d(x, 1)", {"x": VOL}),
    Case("adaptive_avg_pool3d_bad", F + "adaptive_avg_pool3d(x, 2)", {"x": (3, 4)}, raises=True),
    Case("adaptive_max_pool3d", F + "adaptive_max_pool3d(x, 3)", {"x": VOL}),
    Case("adaptive_max_pool3d_idx", F + "adaptive_max_pool3d(x, 2, True)[1]", {"x": (2, 3, 5, 4)}),
    Case("adaptive_max_pool2d", F + "adaptive_max_pool2d(x, (3, 2))", {"x": (2, 3, 5, 4)}),
    Case("adaptive_max_pool1d", F + "adaptive_max_pool1d(x, 3)", {"x": (2, 3, 7)}),
    Case("adaptive_max_pool1d_bad", F + "adaptive_max_pool1d(x, 3)", {"x": VOL}, raises=True),
    Case("max_unpool2d", F + "max_unpool2d(x, i, 2)", {"x": (1, 1, 2, 2)}, setup=IDX2),
    Case(
        "max_unpool2d_size",
        F + "max_unpool2d(x, i, 2, output_size=(5, 5))",
        {"x": (1, 1, 2, 2)},
        setup=IDX2,
    ),
    Case(
        "max_unpool2d_bad_size",
        F + "max_unpool2d(x, i, 2, output_size=(9, 9))",
        {"x": (1, 1, 2, 2)},
        setup=IDX2,
        raises=True,
    ),
    Case("max_unpool3d", F + "max_unpool3d(x, i, 2)", {"x": (1, 1, 2, 2, 2)}, setup=IDX3),
    Case(
        "max_unpool1d",
        F + "max_unpool1d(x, i, 2)",
        {"x": (1, 2, 3)},
        setup="i = torch.tensor([[[1, 2, 5], [0, 3, 4]]])\n",
    ),
    Case(
        "fractional_max_pool2d",
        F + "fractional_max_pool2d(x, 2, output_size=3, _random_samples=u)",
        {"x": (2, 2, 5, 6)},
        setup="u = torch.tensor([[[0.1, 0.7], [0.45, 0.2]], [[0.9, 0.05], [0.3, 0.6]]]).double()\n",
    ),
    Case(
        "fractional_max_pool3d",
        F + "fractional_max_pool3d(x, (1, 2, 2), output_size=(2, 3, 2), _random_samples=u)",
        {"x": (1, 2, 3, 5, 4)},
        setup="u = torch.tensor([[[0.1, 0.7, 0.3], [0.45, 0.2, 0.8]]]).double()\n",
    ),
    Case(
        "fractional_max_pool2d_seeded",
        F + "fractional_max_pool2d(x, 3, output_ratio=(0.5, 0.5), return_indices=True)[1]",
        {"x": (1, 7, 8)},
        setup="torch.manual_seed(0)\n",
        gradcheck=False,
    ),
    Case(
        "fractional_max_pool_dtype",
        F + "fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.zeros(1, 1, 2))",
        {"x": (1, 1, 5, 5)},
        raises=True,
    ),
    Case(
        "fractional_max_pool2d_big",
        F + "fractional_max_pool2d(x, 3, output_size=3)",
        {"x": (1, 1, 4, 4)},
        raises=True,
    ),
    Case("lp_pool3d", F + "lp_pool3d(x, 2, 2)", {"x": VOL}, domain=(0.5, 2.0)),
    Case("lp_pool1d", F + "lp_pool1d(x, 3, 2, 1)", {"x": (2, 3, 5)}, domain=(0.5, 2.0)),
    Case(
        "trilinear_ac",
        F + "interpolate(x, size=(3, 5, 2), mode='trilinear', align_corners=True)",
        {"x": (1, 2, 2, 3, 4)},
    ),
    Case("nearest3d_size", F + "interpolate(x, size=(3, 5, 2))", {"x": (1, 2, 2, 3, 4)}),
]
