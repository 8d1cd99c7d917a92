"""Rows for engine/ops/nn_channel.py (channel shuffle, rrelu, glu) and engine/nn/functional/
(dropout, vision, loss); seeded random layers use PyTorch's CPU random stream, which the
engine reproduces."""

from tests.engine.cases import Case

F = "torch.nn.functional."
SEED = "torch.manual_seed(0)\n"
RNN = "torch.nn.utils.rnn."

CASES = [
    Case("channel_shuffle", F + "channel_shuffle(x, 3)", {"x": (2, 6, 2, 1)}),
    Case("channel_shuffle_bad", F + "channel_shuffle(x, 4)", {"x": (1, 6, 2)}, raises=True),
    Case("rrelu_eval", F + "rrelu(x)", {"x": (3, 4)}),
    Case("rrelu_train", F + "rrelu(x, 0.1, 0.4, training=True)", {"x": (3, 4)}, setup=SEED),
    Case("rrelu_bounds", F + "rrelu(x, 0.5, 0.1)", {"x": (3,)}, raises=True),
    Case("lrn_3d", F + "local_response_norm(x, 3)", {"x": (2, 5, 3)}),
    Case(
        "lrn_4d", F + "local_response_norm(x, 2, alpha=0.1, beta=0.5, k=2.0)", {"x": (1, 4, 2, 3)}
    ),
    Case("lrn_bad", F + "local_response_norm(x, 2)", {"x": (2, 3)}, raises=True),
    Case("alpha_dropout", F + "alpha_dropout(x, 0.3, True)", {"x": (4, 5)}, setup=SEED),
    Case(
        "feature_alpha_dropout",
        F + "feature_alpha_dropout(x, 0.5, True)",
        {"x": (3, 4, 2)},
        setup=SEED,
    ),
    Case("glu", F + "glu(x, 1)", {"x": (2, 4, 3)}),
    Case("glu_last", "torch.nn.GLU()(x)", {"x": (3, 2)}),
    Case("glu_odd", F + "glu(x)", {"x": (2, 3)}, raises=True),
    Case("affine_grid", F + "affine_grid(t, (2, 1, 3, 4), align_corners=False)", {"t": (2, 2, 3)}),
    Case(
        "affine_grid_ac", F + "affine_grid(t, (1, 3, 2, 5), align_corners=True)", {"t": (1, 2, 3)}
    ),
    Case("affine_grid_bad", F + "affine_grid(t, (1, 2, 3), False)", {"t": (1, 2, 3)}, raises=True),
    Case(
        "grid_sample",
        F + "grid_sample(x, g, align_corners=False)",
        {"x": (2, 3, 4, 5), "g": (2, 3, 2, 2)},
        (-1.3, 1.3),
    ),
    Case(
        "grid_sample_border_ac",
        F + "grid_sample(x, g, padding_mode='border', align_corners=True)",
        {"x": (1, 2, 3, 3), "g": (1, 4, 2, 2)},
        (-1.3, 1.3),
    ),
    Case(
        "grid_sample_reflection",
        F + "grid_sample(x, g, padding_mode='reflection', align_corners=False)",
        {"x": (1, 2, 3, 4), "g": (1, 2, 3, 2)},
        (-1.8, 1.8),
    ),
    Case(
        "grid_sample_nearest",
        F + "grid_sample(x, g, mode='nearest', align_corners=False)",
        {"x": (1, 2, 3, 4), "g": (1, 2, 3, 2)},
        gradcheck=False,
    ),
    Case(
        "grid_sample_bicubic",
        F + "grid_sample(x, g, mode='bicubic', align_corners=False)",
        {"x": (2, 2, 4, 5), "g": (2, 3, 2, 2)},
        (-1.3, 1.3),
    ),
    Case(
        "grid_sample_bicubic_reflection_ac",
        F + "grid_sample(x, g, mode='bicubic', padding_mode='reflection', align_corners=True)",
        {"x": (1, 2, 3, 4), "g": (1, 2, 3, 2)},
        (-1.8, 1.8),
    ),
    Case(
        "grid_sample_bicubic_border",
        F + "grid_sample(x, g, mode='bicubic', padding_mode='border', align_corners=False)",
        {"x": (1, 1, 4, 3), "g": (1, 3, 2, 2)},
        (-1.5, 1.5),
    ),
    Case(
        "affine_grid_3d",
        F + "affine_grid(t, (2, 1, 2, 3, 4), align_corners=False)",
        {"t": (2, 3, 4)},
    ),
    Case(
        "affine_grid_3d_ac",
        F + "affine_grid(t, (1, 2, 3, 1, 2), align_corners=True)",
        {"t": (1, 3, 4)},
    ),
    Case(
        "affine_grid_3d_bad",
        F + "affine_grid(t, (1, 1, 2, 3, 4), False)",
        {"t": (1, 2, 3)},
        raises=True,
    ),
    Case(
        "grid_sample_3d",
        F + "grid_sample(x, g, align_corners=False)",
        {"x": (2, 2, 3, 4, 3), "g": (2, 2, 2, 3, 3)},
        (-1.3, 1.3),
    ),
    Case(
        "grid_sample_3d_border_ac",
        F + "grid_sample(x, g, padding_mode='border', align_corners=True)",
        {"x": (1, 2, 2, 3, 3), "g": (1, 3, 2, 2, 3)},
        (-1.3, 1.3),
    ),
    Case(
        "grid_sample_3d_reflection",
        F + "grid_sample(x, g, padding_mode='reflection', align_corners=False)",
        {"x": (1, 1, 3, 2, 4), "g": (1, 2, 3, 2, 3)},
        (-1.8, 1.8),
    ),
    Case(
        "grid_sample_3d_nearest_reflection_ac",
        F + "grid_sample(x, g, 'nearest', 'reflection', align_corners=True)",
        {"x": (1, 2, 3, 2, 4), "g": (1, 2, 3, 2, 3)},
        (-1.8, 1.8),
        gradcheck=False,
    ),
    Case(
        "grid_sample_3d_bicubic",
        F + "grid_sample(x, g, mode='bicubic', align_corners=False)",
        {"x": (1, 1, 2, 2, 2), "g": (1, 1, 1, 1, 3)},
        raises=True,
    ),
    Case(
        "grid_sample_bad_batch",
        F + "grid_sample(x, g, align_corners=False)",
        {"x": (1, 2, 3, 4), "g": (2, 2, 3, 2)},
        raises=True,
    ),
    Case("pdist", F + "pdist(x)", {"x": (4, 3)}),
    Case("pdist_p1", "torch.pdist(x, 1)", {"x": (3, 5)}),
    Case("pdist_p3", F + "pdist(x, 3)", {"x": (4, 2)}),
    Case("pdist_p_half", F + "pdist(x, 0.5)", {"x": (3, 3)}),
    Case("pdist_inf", F + "pdist(x, float('inf'))", {"x": (4, 3)}),
    Case("pdist_1d", F + "pdist(x)", {"x": (4,)}, raises=True),
    # PyTorch's CTC gradient is the logits' one: exact only through log_softmax, as used
    Case(
        "ctc_loss_mean",
        F + "ctc_loss(x.log_softmax(2), t, [5, 4], [3, 2])",
        {"x": (5, 2, 4)},
        setup="t = torch.tensor([[1, 2, 2], [3, 1, 0]])\n",
    ),
    Case(
        "ctc_loss_none_blank",
        F + "ctc_loss(x.log_softmax(2), t, (4, 3), (2, 1), blank=2, reduction='none')",
        {"x": (4, 2, 3)},
        setup="t = torch.tensor([0, 1, 1])\n",
    ),
    Case(
        "ctc_loss_zero_inf",
        F + "ctc_loss(x.log_softmax(2), t, [2, 4], [3, 2], reduction='sum', zero_infinity=True)",
        {"x": (5, 2, 4)},
        setup="t = torch.tensor([[1, 1, 1], [3, 1, 0]])\n",
    ),
    Case("dropout3d", F + "dropout3d(x, 0.5)", {"x": (2, 3, 2, 1, 2)}, setup=SEED),
    # torch.nn.utils.rnn: packing pads out (PackPaddedSequenceBackward0), sorted or not
    Case(
        "pack_padded",
        RNN + "pack_padded_sequence(x, [3, 2, 1], batch_first=True).data",
        {"x": (3, 3, 2)},
    ),
    Case(
        "pack_padded_unsorted",
        RNN + "pack_padded_sequence(x, [2, 3, 1], enforce_sorted=False).data",
        {"x": (3, 3, 2)},
    ),
]
