"""`torch.nn.functional`: activations, linear/conv/pool/norm layers as functions, and losses.

Each function records the nodes PyTorch records (check with real torch): e.g. `linear` on a 2d
input is one AddmmBackward0, on a 3d contiguous input ViewBackward0 over AddmmBackward0.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import engine
from engine._tensor import Tensor, make
from engine.autograd.grad_mode import no_grad
from engine.nn._functional_extra import (
    dropout1d,
    dropout2d,
    instance_norm,
    interpolate,
    rms_norm,
    upsample,
)
from engine.nn._functional_layers import (
    affine_grid,
    alpha_dropout,
    channel_shuffle,
    ctc_loss,
    dropout3d,
    feature_alpha_dropout,
    grid_sample,
    gumbel_softmax,
    local_response_norm,
    native_channel_shuffle,
    rrelu,
    rrelu_,
    upsample_bilinear,
    upsample_nearest,
)
from engine.nn._functional_loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    huber_loss,
    kl_div,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
)
from engine.nn._functional_loss_more import (
    cosine_embedding_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    soft_margin_loss,
    triplet_margin_with_distance_loss,
)
from engine.nn._functional_misc import (
    hardshrink,
    margin_ranking_loss,
    pairwise_distance,
    poisson_nll_loss,
    prelu,
    softshrink,
    triplet_margin_loss,
)
from engine.nn._functional_more import (
    batch_norm,
    bilinear,
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    group_norm,
    layer_norm,
    normalize,
    one_hot,
    pad,
)
from engine.nn._functional_pool import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d,
    adaptive_max_pool2d_with_indices,
    adaptive_max_pool3d,
    adaptive_max_pool3d_with_indices,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    fractional_max_pool2d,
    fractional_max_pool2d_with_indices,
    fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_pool1d,
    max_pool1d_with_indices,
    max_pool2d,
    max_pool2d_with_indices,
    max_pool3d,
    max_pool3d_with_indices,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from engine.ops import nn_act, nn_ops
from engine.ops._core import rebase
from engine.ops.nn_attention import scaled_dot_product_attention
from engine.ops.nn_embedding_bag import embedding_bag
from engine.ops.nn_fold import fold, unfold
from engine.ops.nn_pdist import pdist
from engine.ops.nn_pixel import pixel_shuffle, pixel_unshuffle

__all__ = [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d", "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d", "adaptive_max_pool3d_with_indices", "affine_grid", "alpha_dropout",
    "avg_pool1d", "avg_pool2d", "avg_pool3d", "batch_norm", "bilinear", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "celu", "channel_shuffle", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "cosine_embedding_loss",
    "cosine_similarity", "cross_entropy", "ctc_loss", "dropout", "dropout1d", "dropout2d",
    "dropout3d", "elu", "embedding", "embedding_bag", "feature_alpha_dropout", "fold",
    "fractional_max_pool2d", "fractional_max_pool2d_with_indices", "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices", "gaussian_nll_loss", "gelu", "glu", "grid_sample",
    "group_norm", "gumbel_softmax", "hardshrink", "hardsigmoid", "hardswish", "hardtanh",
    "hinge_embedding_loss", "huber_loss", "instance_norm", "interpolate", "kl_div", "l1_loss",
    "layer_norm", "leaky_relu", "linear", "local_response_norm", "log_softmax", "logsigmoid",
    "lp_pool1d", "lp_pool2d", "lp_pool3d", "margin_ranking_loss", "max_pool1d",
    "max_pool1d_with_indices", "max_pool2d", "max_pool2d_with_indices", "max_pool3d",
    "max_pool3d_with_indices", "max_unpool1d", "max_unpool2d", "max_unpool3d", "mish", "mse_loss",
    "multi_margin_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss",
    "native_channel_shuffle", "nll_loss", "normalize", "one_hot", "pad", "pairwise_distance",
    "pdist", "pixel_shuffle", "pixel_unshuffle", "poisson_nll_loss", "prelu", "relu", "relu6",
    "rms_norm", "rrelu", "rrelu_", "scaled_dot_product_attention", "selu", "sigmoid", "silu",
    "smooth_l1_loss", "soft_margin_loss", "softmax", "softmin", "softplus", "softshrink",
    "softsign", "tanh", "tanhshrink", "threshold", "triplet_margin_loss",
    "triplet_margin_with_distance_loss", "unfold", "upsample", "upsample_bilinear",
    "upsample_nearest"
]  # fmt: skip


def _inplace(x: Tensor, out: Tensor, inplace: bool) -> Tensor:
    """PyTorch's `inplace=True`: write the result into `x` and give `x` its history."""
    if not inplace:
        return out
    from engine.ops._core import check_inplace

    check_inplace(x)
    return rebase(x, out)


# -- activations --------------------------------------------------------------------------
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(0, x)."""
    return _inplace(input, input.relu(), inplace)  # type: ignore[attr-defined]


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    if inplace:
        return _inplace(input, nn_ops.leaky_relu_result(input, negative_slope), True)
    return nn_ops.leaky_relu(input, negative_slope)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    return nn_ops.gelu(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_ops.silu(input), inplace)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return _inplace(input, nn_ops.elu_result(input, alpha, 1.0, 1.0, False), True)
    return nn_ops.elu(input, alpha)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return _inplace(input, nn_ops.elu_result(input, _SELU_ALPHA, _SELU_SCALE, 1.0, False), True)
    return nn_ops.elu(input, _SELU_ALPHA, _SELU_SCALE)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return _inplace(input, nn_ops.elu_result(input, alpha, 1.0, 1.0 / alpha, True), True)
    return nn_ops.elu(input, alpha, 1.0, 1.0 / alpha, celu=True)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return nn_ops.softplus(input, beta, threshold)


def hardtanh(
    input: Tensor,
    min_val: float = -1.0,
    max_val: float = 1.0,
    inplace: bool = False,
) -> Tensor:
    return _inplace(input, nn_ops.hardtanh(input, min_val, max_val), inplace)


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()  # type: ignore[attr-defined, no-any-return]


def tanh(input: Tensor) -> Tensor:
    return input.tanh()  # type: ignore[attr-defined, no-any-return]


def softsign(input: Tensor) -> Tensor:
    return input / (input.abs() + 1)  # type: ignore[attr-defined, no-any-return]


def tanhshrink(input: Tensor) -> Tensor:
    return input - input.tanh()  # type: ignore[attr-defined, no-any-return]


def logsigmoid(input: Tensor) -> Tensor:
    return nn_act.log_sigmoid(input)


logsigmoid.__name__ = "log_sigmoid"  # PyTorch's is the C++ builtin of that name


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_act.mish(input), inplace)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_act.hardsigmoid(input), inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_act.hardswish(input), inplace)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """a * sigmoid(b) for the halves of input along dim (one GluBackward0 node)."""
    from engine.ops.nn_channel import glu as _glu

    return _glu(input, dim)


def _softmax_dim(ndim: int) -> int:
    warnings.warn(
        "Implicit dimension choice for softmax has been deprecated. Change the call to include "
        "dim=X as an argument.",
        UserWarning,
        stacklevel=3,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """exp(x) / sum(exp(x)) along `dim`."""
    if dim is None:
        dim = _softmax_dim(input.ndim)
    return input.softmax(dim, dtype=dtype)  # type: ignore[attr-defined, no-any-return]


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """x - logsumexp(x) along `dim`."""
    if dim is None:
        dim = _softmax_dim(input.ndim)
    return input.log_softmax(dim, dtype=dtype)  # type: ignore[attr-defined, no-any-return]


def softmin(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    return softmax(-input, dim, dtype=dtype)


# -- linear, dropout, embedding -----------------------------------------------------------
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input @ weight.T + bias, recorded as PyTorch records it."""
    wt = weight.t()  # type: ignore[attr-defined]
    if input.ndim == 2:
        if bias is None:
            return input.mm(wt)  # type: ignore[attr-defined, no-any-return]
        return engine.addmm(bias, input, wt)  # type: ignore[attr-defined, no-any-return]
    if bias is not None and input.ndim >= 1 and input.is_contiguous():
        lead = tuple(input.shape[:-1])
        flat = engine.addmm(bias, input.view(-1, input.shape[-1]), wt)  # type: ignore[attr-defined]
        return flat.view(*lead, weight.shape[0])  # type: ignore[no-any-return]
    out = engine.matmul(input, wt)  # type: ignore[attr-defined]
    return out if bias is None else out + bias  # type: ignore[no-any-return]


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero elements with probability p and scale the rest by 1/(1-p) (training only)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    return _inplace(input, input * _dropout_noise(input, tuple(input.shape), p), inplace)


def _dropout_noise(x: Tensor, shape: tuple[int, ...], p: float) -> Tensor:
    """PyTorch's CPU dropout: `empty(shape).bernoulli_(1 - p).div_(1 - p)` (zeros when p=1)."""
    from engine._generator import default_generator

    dt = x._d.dtype
    keep = default_generator.bernoulli_scalar(int(np.prod(shape)), 1.0 - p).reshape(shape)
    if p == 1.0:
        return make(np.zeros(shape, dt), False, None, 0)
    return make(keep.astype(dt) / np.asarray(1.0 - p, dt), False, None, 0)


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Rows of `weight` at the integer positions in `input`."""
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= weight.shape[0]:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            if padding_idx < -weight.shape[0]:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.shape[0] + padding_idx
    else:
        padding_idx = -1
    return nn_ops.embedding(weight, input, padding_idx)


def _pair(v: Any) -> tuple[int, int]:
    return (int(v[0]), int(v[1])) if isinstance(v, list | tuple) else (int(v), int(v))


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    return _inplace(input, nn_act.threshold(input, threshold, value), inplace)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """sum((x1 / |x1|) * (x2 / |x2|)) with norms clamped to eps, in PyTorch's node order."""
    if x1.shape != x2.shape:
        x1, x2 = engine.broadcast_tensors(x1, x2)  # type: ignore[attr-defined]
    norms = []
    for x in (x1, x2):
        # ATen clones the norm and clamps the clone in place under no_grad (CloneBackward0)
        n = engine.linalg.vector_norm(x, 2, dim, keepdim=True).clone()  # type: ignore[attr-defined]
        with no_grad():
            n.clamp_min_(eps)
        norms.append(n)
    return ((x1 / norms[0]) * (x2 / norms[1])).sum(dim)  # type: ignore[no-any-return]


# the `F.relu_(x)` spellings of `inplace=True`
def relu_(input: Tensor) -> Tensor:
    return relu(input, inplace=True)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return elu(input, alpha, inplace=True)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return globals()["threshold"](input, threshold, value, inplace=True)  # type: ignore[no-any-return]


def selu_(input: Tensor) -> Tensor:
    return selu(input, inplace=True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return celu(input, alpha, inplace=True)
