"""`nn.CrossMapLRN2d`'s legacy autograd Function (grad_fn CrossMapLRN2dBackward), ported
step for step from PyTorch's torch/nn/modules/_functions.py in the input's float type."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.function import Function


def _powf(a: Any, e: float) -> Any:
    """pow in a's float type, correctly rounded (as powf is, in practice)."""
    return np.power(a.astype(np.float64), e).astype(a.dtype)


class CrossMapLRN2d(Function):
    @staticmethod
    def forward(
        ctx: Any, input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1
    ) -> Tensor:
        if input.ndim != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.ndim}D instead.")
        x = input._d
        ft = x.dtype.type
        channels = x.shape[1]
        sq = x * x
        pre_pad = int((size - 1) / 2 + 1)
        scale = np.zeros_like(x)
        for c in range(min(pre_pad, channels)):
            scale[:, 0] += sq[:, c]
        for c in range(1, channels):  # a running window sum over channels
            scale[:, c] = scale[:, c - 1]
            if c < channels - pre_pad + 1:
                scale[:, c] += sq[:, c + pre_pad - 1]
            if c > pre_pad:
                scale[:, c] -= sq[:, c - pre_pad]
        scale = scale * ft(alpha / size) + ft(k)
        out = _powf(scale, -beta) * x
        ctx.size, ctx.alpha, ctx.beta, ctx.k, ctx.scale = size, alpha, beta, k, scale
        result = make(out, False, None, 0)
        ctx.save_for_backward(input, result)
        return result

    @staticmethod
    def backward(ctx: Any, grad_output: Tensor) -> Any:
        inp, out = (t._d for t in ctx.saved_tensors)
        g, scale, size = grad_output._d, ctx.scale, ctx.size
        ft = inp.dtype.type
        n_batch, channels = inp.shape[:2]
        cache = ft(2 * ctx.alpha * ctx.beta / size)
        inverse_pre_pad = int(size - (size - 1) / 2)
        grad = _powf(scale, -ctx.beta) * g
        padded = np.zeros((channels + size - 1, *inp.shape[2:]), inp.dtype)
        for n in range(n_batch):
            padded[inverse_pre_pad : inverse_pre_pad + channels] = g[n] * out[n] / scale[n]
            accum = padded[: size - 1].sum(0, dtype=inp.dtype)
            for c in range(channels):
                accum = accum + padded[c + size - 1]
                grad[n, c] = grad[n, c] + -cache * inp[n, c] * accum  # addcmul_
                accum = accum - padded[c]
        return make(grad, False, None, 0), None, None, None, None
