"""Rprop: per-coordinate step sizes grown or shrunk by the sign agreement of gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.optim.optimizer import Array, Optimizer, step_count


class Rprop(Optimizer):
    """Each coordinate moves by its own step size (x etaplus on agreeing signs, x etaminus and
    no move on a sign flip), clamped to `step_sizes`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: Any = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(
            lr=lr,
            etas=etas,
            step_sizes=step_sizes,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state["step"] = make(np.asarray(0.0, np.float32), False, None, 0)
            state["prev"] = make(np.zeros_like(p._d), False, None, 0)
            state["step_size"] = make(np.full_like(grad, group["lr"]), False, None, 0)
        dt = p._d.dtype.type
        if group["maximize"]:
            grad = -grad
        step_count(state)
        etaminus, etaplus = group["etas"]
        lo, hi = group["step_sizes"]
        prev, size = state["prev"]._d, state["step_size"]._d
        sign = np.sign(grad * prev)
        factor = np.where(sign > 0, dt(etaplus), np.where(sign < 0, dt(etaminus), dt(1)))
        size *= factor
        np.clip(size, dt(lo), dt(hi), out=size)
        grad = np.where(factor == dt(etaminus), dt(0), grad)
        p._d -= np.sign(grad) * size
        prev[...] = grad
