"""Adagrad: per-coordinate step sizes from the running sum of squared gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.optim.optimizer import Array, Optimizer, step_count


class Adagrad(Optimizer):
    """lr / sqrt(sum of squared gradients) per coordinate; state is created eagerly."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: Any = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: Any = None,
    ) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not lr_decay >= 0.0:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not initial_accumulator_value >= 0.0:
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}"
            )
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(
            lr=lr,
            lr_decay=lr_decay,
            eps=eps,
            weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)

    def _init_state(self, p: Tensor, group: dict[str, Any]) -> None:
        # PyTorch fills Adagrad's state at construction, so state_dict() shows it before a step
        state = self.state.setdefault(p, {})
        if "sum" not in state:
            state["step"] = make(np.asarray(0.0, np.float32), False, None, 0)
            init = group["initial_accumulator_value"]
            state["sum"] = make(np.full_like(p._d, init), False, None, 0)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        super().add_param_group(param_group)
        for p in self.param_groups[-1]["params"]:
            self._init_state(p, self.param_groups[-1])

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        dt = p._d.dtype.type
        step = step_count(state)
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = grad + dt(group["weight_decay"]) * p._d
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        s = state["sum"]._d
        s += grad * grad
        std = np.sqrt(s) + dt(group["eps"])
        p._d += dt(-clr) * grad / std
