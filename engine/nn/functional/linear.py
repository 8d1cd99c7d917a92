"""linear and bilinear."""

from __future__ import annotations

import engine
from engine._tensor import Tensor
from engine.ops import autocast as _autocast
from engine.ops.nn_bilinear import trilinear


# -- linear, dropout, embedding -----------------------------------------------------------
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input @ weight.T + bias, recorded as PyTorch records it."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        input, weight, bias = _autocast.lower(input, weight, bias)
    if input.ndim == 2:
        wt = weight.t()
        if bias is None:
            return input.mm(wt)
        return engine.addmm(bias, input, wt)
    if bias is not None and input.ndim >= 1 and input.is_contiguous():
        lead = tuple(input.shape[:-1])
        # PyTorch views the input before it transposes the weight (the nodes' order)
        rows = input.view(-1, input.shape[-1])
        flat = engine.addmm(bias, rows, weight.t())
        return flat.view(*lead, weight.shape[0])
    out = engine.matmul(input, weight.t())
    return out if bias is None else out + bias


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """x1^T A x2 + b for each output feature."""
    # PyTorch flattens both inputs to 2d (reshape: views), then reshapes the result back
    shape = (*input1.shape[:-1], weight.shape[0])
    a = input1.reshape(-1, input1.shape[-1])
    b = input2.reshape(-1, input2.shape[-1])
    out = trilinear(a, weight, b).reshape(shape)
    return out if bias is None else out + bias
