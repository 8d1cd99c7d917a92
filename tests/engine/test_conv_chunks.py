"""Convolutions whose im2col buffer is built a few samples at a time (to bound memory) give the
same values and gradients as the one-buffer path."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import engine
import engine.nn.functional as F
from engine.ops import nn_conv


def _run(fn: Any, x0: np.ndarray[Any, Any], w0: np.ndarray[Any, Any]) -> list[np.ndarray[Any, Any]]:
    x = engine.tensor(x0, requires_grad=True)
    w = engine.tensor(w0, requires_grad=True)
    y = fn(x, w)
    # first order on ndarrays (the fused backward), then recorded for a second order
    px, pw = engine.autograd.grad((y * y).sum(), (x, w), retain_graph=True)
    gx, gw = engine.autograd.grad((y * y).sum(), (x, w), create_graph=True)
    (ggw,) = engine.autograd.grad((gx * gx).sum(), w)
    return [np.asarray(t.tolist()) for t in (y, px, pw, gx, gw, ggw)]


CASES = {
    "conv3d": (
        lambda x, w: F.conv3d(x, w, stride=(1, 2, 1), padding=1, dilation=(2, 1, 1)),
        (3, 2, 4, 5, 4),
        (3, 2, 2, 3, 2),
    ),
    "conv2d_groups": (lambda x, w: F.conv2d(x, w, groups=2, padding=1), (4, 4, 5, 5), (6, 2, 3, 3)),
    "conv_transpose3d": (
        lambda x, w: F.conv_transpose3d(x, w, stride=2, padding=1, output_padding=1),
        (3, 2, 3, 3, 2),
        (2, 3, 2, 2, 2),
    ),
    "conv1d": (lambda x, w: F.conv1d(x, w, stride=2), (5, 3, 9), (2, 3, 3)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_batch_chunks_match_one_buffer(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fn, xs, ws = CASES[name]
    rng = np.random.default_rng(0)
    x0, w0 = rng.standard_normal(xs), rng.standard_normal(ws)
    whole = _run(fn, x0, w0)
    monkeypatch.setattr(nn_conv, "COLS_LIMIT", 8)  # one sample per chunk
    chunked = _run(fn, x0, w0)
    for a, b in zip(whole, chunked):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
