"""ASGD: averaged stochastic gradient descent (a decaying step, and a running average `ax`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.optim.optimizer import Array, Optimizer, fma_add, step_count


class ASGD(Optimizer):
    """SGD whose step size decays as lr / (1 + lambd * lr * t) ** alpha, averaging after t0."""

    _capturable_tensors = "params, mus, etas, and state_steps"

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: Any = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr,
            lambd=lambd,
            alpha=alpha,
            t0=t0,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state["step"] = make(np.asarray(0.0, np.float32), False, None, 0)
            state["eta"] = make(np.asarray(group["lr"], np.float32), False, None, 0)
            state["mu"] = make(np.asarray(1.0, np.float32), False, None, 0)
            state["ax"] = make(np.zeros_like(p._d), False, None, 0)
        dt = p._d.dtype.type
        if group["maximize"]:
            grad = -grad
        step = step_count(state)
        if group["weight_decay"] != 0:
            grad = fma_add(grad, p._d, group["weight_decay"])
        eta = float(state["eta"]._d)
        lambd = group["lambd"]
        p._d *= dt(1 - lambd * eta)
        p._d[...] = fma_add(p._d, grad, -eta)
        ax, mu = state["ax"]._d, state["mu"]._d
        if float(mu) != 1:
            ax += (p._d - ax) * mu.astype(ax.dtype)
        else:
            ax[...] = p._d
        lr = group["lr"]
        state["eta"]._d[...] = np.float32(lr / ((1 + lambd * lr * step) ** group["alpha"]))
        state["mu"]._d[...] = np.float32(1 / max(1, step - group["t0"]))
