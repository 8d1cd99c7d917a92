"""Adadelta (the optimizer of PyTorch's MNIST example)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.optim.optimizer import Array, Optimizer, buffer, fma, fma_add, step_count


class Adadelta(Optimizer):
    """Per-coordinate steps from running averages of squared gradients and squared updates."""

    _capturable_devices = "['cuda', 'xpu', 'hpu', 'privateuseone']"

    def __init__(
        self,
        params: Any,
        lr: float = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: Any = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr,
            rho=rho,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            capturable=capturable,
            foreach=foreach,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        dt = p._d.dtype.type
        if group["maximize"]:
            grad = -grad
        step_count(state)
        square_avg = buffer(state, "square_avg", p._d)
        acc_delta = buffer(state, "acc_delta", p._d)
        if group["weight_decay"] != 0:
            grad = fma_add(grad, p._d, group["weight_decay"])
        rho, eps = group["rho"], dt(group["eps"])
        # mul_ then addcmul_ (one fused rounding), as PyTorch's single-tensor loop
        square_avg *= dt(rho)
        square_avg[...] = fma(dt(1 - rho) * grad, grad, square_avg)
        std = np.sqrt(square_avg + eps)
        delta = np.sqrt(acc_delta + eps) / std * grad
        acc_delta *= dt(rho)
        acc_delta[...] = fma(dt(1 - rho) * delta, delta, acc_delta)
        p._d[...] = fma_add(p._d, delta, -group["lr"])
