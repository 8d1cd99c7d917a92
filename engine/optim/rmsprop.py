"""RMSprop with momentum, centering and weight decay."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.optim.adam import lerp_
from engine.optim.optimizer import Array, Optimizer, buffer, fma, fma_add, step_count


class RMSprop(Optimizer):
    """Divide the gradient by a running RMS of recent gradients."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: Any = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if alpha < 0.0:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            alpha=alpha,
            eps=eps,
            centered=centered,
            weight_decay=weight_decay,
            capturable=capturable,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        dt = p._d.dtype.type
        if group["maximize"]:
            grad = -grad
        step_count(state)
        square_avg = buffer(state, "square_avg", p._d)
        mom_buf = buffer(state, "momentum_buffer", p._d) if group["momentum"] > 0 else None
        grad_avg = buffer(state, "grad_avg", p._d) if group["centered"] else None
        if group["weight_decay"] != 0:
            grad = fma_add(grad, p._d, group["weight_decay"])
        alpha = group["alpha"]
        # the same fused roundings as PyTorch's mul_/addcmul_/addcdiv_/add_(alpha=) kernels
        square_avg *= dt(alpha)
        square_avg[...] = fma(dt(1 - alpha) * grad, grad, square_avg)
        if grad_avg is not None:
            lerp_(grad_avg, grad, 1 - alpha)
            avg = np.sqrt(fma(dt(-1) * grad_avg, grad_avg, square_avg))
        else:
            avg = np.sqrt(square_avg)
        avg = avg + dt(group["eps"])
        if mom_buf is not None:
            mom_buf *= dt(group["momentum"])
            mom_buf += grad / avg
            p._d[...] = fma_add(p._d, mom_buf, -group["lr"])
        else:
            p._d += (dt(-group["lr"]) * grad) / avg
