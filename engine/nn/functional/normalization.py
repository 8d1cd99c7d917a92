"""Normalization functions: batch_norm, instance_norm, layer_norm, group_norm, rms_norm,
local_response_norm, normalize."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.ops import nn_norm
from engine.ops.composite import add_scalar
from engine.ops.scalar_overloads import clamp_min


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise each channel by batch statistics (training) or running ones (eval)."""
    if training:
        shape = input.shape
        n = shape[0]
        for s in shape[2:]:
            n *= s
        if n == 1:
            raise ValueError(
                f"Expected more than 1 value per channel when training, got input size {shape}"
            )
    # ATen's batch_norm: each given statistic or affine tensor has one entry per channel
    features = input.shape[1] if input.dim() > 1 else 0
    checked = (("running_mean", running_mean), ("running_var", running_var))
    for name, t in (*checked, ("weight", weight), ("bias", bias)):
        if t is None:
            if not training and name.startswith("running"):
                raise RuntimeError(f"{name} must be defined in evaluation mode")
        elif input.numel() and t.numel() != features:
            raise RuntimeError(f"{name} should contain {features} elements not {t.numel()}")
    if input.numel() == 0:
        # ATen's _batch_norm_impl_index: an empty batch leaves the statistics as they are and
        # gives a copy of the input times weight[0] plus bias[0], so the graph still reaches the
        # parameters (their grads are zeros)
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        if bias is not None:
            out = out + bias[0]
        return out
    return nn_norm.native_batch_norm(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )


def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise over the trailing `normalized_shape` dimensions."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    return nn_norm.native_layer_norm(input, shape, weight, bias, eps)


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise channel groups of each sample."""
    return nn_norm.native_group_norm(input, num_groups, weight, bias, eps)


def normalize(
    input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Any = None
) -> Tensor:
    """input / max(||input||_p along dim, eps)."""
    denom = clamp_min(input.norm(p, dim, keepdim=True), eps).expand_as(input)
    if out is not None:  # PyTorch's torch.div(input, denom, out=out)
        from engine.ops.out_params import with_out

        return with_out(lambda a, b: a / b, "div")(input, denom, out=out)  # type: ignore[no-any-return]
    return input / denom


def rms_norm(
    input: Tensor, normalized_shape: Any, weight: Tensor | None = None, eps: float | None = None
) -> Tensor:
    """x / sqrt(mean(x^2) + eps) over the trailing dims, times weight (ATen's composite)."""
    from engine._finfo import finfo

    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    dims = list(range(input.ndim - len(shape), input.ndim))
    eps_val = finfo(input.dtype).eps if eps is None else eps
    sq_mean = input.pow(2).mean(dims, keepdim=True)
    rsq = add_scalar(sq_mean, eps_val).rsqrt()
    result = input.mul(rsq)
    return result.mul(weight) if weight is not None else result


def instance_norm(
    input: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Batch norm over (1, N*C, ...): each sample's channels normalised alone (ATen's way)."""
    from engine.autograd.grad_mode import no_grad

    pass

    b, c = input.shape[0], input.shape[1]
    x = input.contiguous().view(1, b * c, *input.shape[2:])
    w = weight.repeat(b) if weight is not None else None
    bs = bias.repeat(b) if bias is not None else None
    rm = running_mean.repeat(b) if running_mean is not None else None
    rv = running_var.repeat(b) if running_var is not None else None
    out = batch_norm(x, rm, rv, w, bs, use_input_stats, momentum, eps)
    with no_grad():  # the repeated running stats fold back into the per-channel ones
        if running_mean is not None and rm is not None:
            running_mean.copy_(rm.view(b, c).mean(0))
        if running_var is not None and rv is not None:
            running_var.copy_(rv.view(b, c).mean(0))
    return out.view(input.shape)


def local_response_norm(
    input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0
) -> Tensor:
    """x / (k + alpha * mean of x^2 over `size` neighbouring channels)^beta (PyTorch's
    composition: pad and average-pool the squares)."""
    from engine.nn.functional.padding import pad
    from engine.nn.functional.pooling import avg_pool2d, avg_pool3d

    dim = input.ndim
    if dim < 3:
        raise ValueError(
            f"Expected 3D or higher dimensionality                          input (got {dim} "
            "dimensions)"
        )
    if input._d.size == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div
