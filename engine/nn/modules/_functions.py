"""`torch.nn.modules._functions.SyncBatchNorm`: batch norm whose statistics are those of the
whole batch across the ranks of a process group (PyTorch's algorithm: each rank's mean,
invstd and count are all-gathered and combined; backward all-reduces sum(dy) and
sum(dy * (x - mean)) before each rank computes its input gradient)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.function import Function, once_differentiable
from engine.distributed.world import MEMBER, World
from engine.ops._core import overwrite

Array = np.ndarray[Any, Any]


def _chan(v: Array, ndim: int) -> Array:
    return v.reshape((1, -1) + (1,) * (ndim - 2))


def _axes(ndim: int) -> tuple[int, ...]:
    return (0, *range(2, ndim))


class SyncBatchNorm(Function):
    @staticmethod
    def forward(
        ctx: Any,
        input: Tensor,
        weight: Tensor | None,
        bias: Tensor | None,
        running_mean: Tensor | None,
        running_var: Tensor | None,
        eps: float,
        momentum: float,
        process_group: Any,
        world_size: int,
    ) -> Tensor:
        world: World | None = MEMBER.world
        assert world is not None
        x = input._d
        axes = _axes(x.ndim)
        count = x.size // x.shape[1]
        mean = x.mean(axis=axes, dtype=np.float64)
        var = x.var(axis=axes, dtype=np.float64)
        everyone = world.exchange(MEMBER.rank, (mean, var, count))
        counts = np.array([c for _, _, c in everyone], np.float64)
        means = np.stack([m for m, _, _ in everyone])
        vars_ = np.stack([v for _, v, _ in everyone])
        total = counts.sum()
        g_mean = (counts[:, None] * means).sum(axis=0) / total
        # the combined (biased) variance: within-rank spread plus the spread of rank means
        g_var = (counts[:, None] * (vars_ + (means - g_mean) ** 2)).sum(axis=0) / total
        invstd = 1.0 / np.sqrt(g_var + eps)
        if running_mean is not None and running_var is not None:
            unbiased = g_var * total / max(total - 1, 1)
            rm, rv = running_mean._d, running_var._d
            overwrite(running_mean, (1 - momentum) * rm + momentum * g_mean)
            overwrite(running_var, (1 - momentum) * rv + momentum * unbiased)
        dt = x.dtype
        out = (x - _chan(g_mean, x.ndim)) * _chan(invstd, x.ndim)
        if weight is not None:
            out = out * _chan(weight._d, x.ndim)
        if bias is not None:
            out = out + _chan(bias._d, x.ndim)
        ctx.save_for_backward(input, weight)
        ctx.stats = (g_mean, invstd, total)
        return make(np.asarray(out, dt), False, None, 0)

    @staticmethod
    @once_differentiable
    def backward(ctx: Any, grad_output: Tensor) -> Any:
        world: World | None = MEMBER.world
        assert world is not None
        input, weight = ctx.saved_tensors
        g_mean, invstd, total = ctx.stats
        x, dy = input._d, grad_output._d
        axes = _axes(x.ndim)
        xmu = x - _chan(g_mean, x.ndim)
        sum_dy = dy.sum(axis=axes, dtype=np.float64)
        sum_dy_xmu = (dy * xmu).sum(axis=axes, dtype=np.float64)
        grad_weight = grad_bias = None
        if weight is not None and ctx.needs_input_grad[1]:
            grad_weight = make((sum_dy_xmu * invstd).astype(x.dtype), False, None, 0)
        if weight is not None and ctx.needs_input_grad[2]:
            grad_bias = make(sum_dy.astype(x.dtype), False, None, 0)
        grad_input = None
        if ctx.needs_input_grad[0]:
            # every rank's sums: the input gradient is that of the whole batch's statistics
            everyone = world.exchange(MEMBER.rank, (sum_dy, sum_dy_xmu))
            all_dy = np.sum([a for a, _ in everyone], axis=0)
            all_dy_xmu = np.sum([b for _, b in everyone], axis=0)
            w = weight._d if weight is not None else 1.0
            scale = _chan(invstd * w, x.ndim)
            gi = (
                dy
                - _chan(all_dy / total, x.ndim)
                - xmu * _chan(invstd * invstd * all_dy_xmu / total, x.ndim)
            ) * scale
            grad_input = make(np.asarray(gi, x.dtype), False, None, 0)
        return grad_input, grad_weight, grad_bias, None, None, None, None, None, None


SyncBatchNorm.__module__ = "torch.nn.modules._functions"
