"""Rows for engine/ops/nn_upsample.py, nn_attention.py, nn_pixel.py and composite.py:
interpolation, attention and pixel shuffle."""

from tests.engine.cases import Case

F = "torch.nn.functional.interpolate"
SDPA = "torch.nn.functional.scaled_dot_product_attention"

CASES = [
    Case("nearest1d_x2", F + "(x, scale_factor=2)", {"x": (2, 3, 4)}),
    Case("nearest1d_size", F + "(x, size=7)", {"x": (2, 3, 4)}),
    Case("nearest2d_x2", F + "(x, scale_factor=2)", {"x": (1, 2, 3, 4)}),
    Case("nearest2d_size", F + "(x, size=(5, 3))", {"x": (1, 2, 3, 4)}),
    Case("nearest2d_frac", F + "(x, scale_factor=1.5)", {"x": (1, 2, 3, 4)}),
    Case("nearest3d", F + "(x, scale_factor=(1, 2, 2))", {"x": (1, 1, 2, 2, 3)}),
    Case("linear1d", F + "(x, scale_factor=2, mode='linear')", {"x": (2, 3, 4)}),
    Case("linear1d_ac", F + "(x, size=6, mode='linear', align_corners=True)", {"x": (2, 3, 4)}),
    Case("bilinear", F + "(x, scale_factor=2, mode='bilinear')", {"x": (1, 2, 3, 4)}),
    Case("bilinear_size", F + "(x, size=(4, 7), mode='bilinear')", {"x": (1, 2, 3, 4)}),
    Case(
        "bilinear_ac",
        F + "(x, size=(5, 5), mode='bilinear', align_corners=True)",
        {"x": (1, 2, 3, 4)},
    ),
    Case("bilinear_down", F + "(x, scale_factor=0.5, mode='bilinear')", {"x": (1, 1, 4, 6)}),
    Case("bicubic", F + "(x, scale_factor=2, mode='bicubic')", {"x": (1, 2, 3, 4)}),
    Case(
        "bicubic_ac",
        F + "(x, size=(5, 3), mode='bicubic', align_corners=True)",
        {"x": (1, 1, 3, 4)},
    ),
    Case("nearest_exact", F + "(x, size=(5, 3), mode='nearest-exact')", {"x": (1, 2, 3, 4)}),
    Case("nearest_exact_1d", F + "(x, scale_factor=1.5, mode='nearest-exact')", {"x": (1, 2, 4)}),
    Case(
        "nearest_exact_3d", F + "(x, size=(3, 2, 3), mode='nearest-exact')", {"x": (1, 1, 2, 3, 2)}
    ),
    Case("area", F + "(x, size=(2, 3), mode='area')", {"x": (1, 2, 4, 5)}),
    Case("trilinear", F + "(x, scale_factor=2, mode='trilinear')", {"x": (1, 1, 2, 2, 3)}),
    Case(
        "bilinear_3d_input",
        F + "(x, scale_factor=2, mode='bilinear')",
        {"x": (2, 3, 4)},
        raises=True,
    ),
    Case("both_size_scale", F + "(x, size=4, scale_factor=2)", {"x": (2, 3, 4)}, raises=True),
    Case("rms_norm", "torch.nn.functional.rms_norm(x, (4,))", {"x": (2, 3, 4)}),
    Case("pixel_shuffle", "torch.nn.functional.pixel_shuffle(x, 2)", {"x": (2, 8, 2, 3)}),
    Case("pixel_unshuffle", "torch.nn.functional.pixel_unshuffle(x, 2)", {"x": (1, 2, 4, 6)}),
    Case("pixel_shuffle_bad", "torch.pixel_shuffle(x, 2)", {"x": (1, 3, 2, 2)}, raises=True),
    Case("sdpa", SDPA + "(q, k, v)", {"q": (1, 2, 3, 4), "k": (1, 2, 5, 4), "v": (1, 2, 5, 4)}),
    Case(
        "sdpa_causal_scale",
        SDPA + "(q, k, v, is_causal=True, scale=0.3)",
        {"q": (2, 1, 3, 2), "k": (2, 1, 3, 2), "v": (2, 1, 3, 2)},
    ),
    Case(
        "sdpa_bool_mask",
        SDPA + "(q, k, v, attn_mask=m)",
        {"q": (1, 1, 3, 2), "k": (1, 1, 4, 2), "v": (1, 1, 4, 2)},
        setup="m = torch.tensor([[True, False, True, True]] * 3)\n",
    ),
    Case(
        "rms_norm_weight_eps",
        "torch.nn.functional.rms_norm(x, (3, 4), w, eps=1e-3)",
        {"x": (2, 3, 4), "w": (3, 4)},
    ),
]
