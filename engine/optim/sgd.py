"""SGD with momentum, dampening, Nesterov, weight decay and maximize."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor, make
from engine.optim.optimizer import Array, Optimizer, fma_add


class SGD(Optimizer):
    """Stochastic gradient descent (PyTorch's single-tensor update, in float32)."""

    _complex_as_real = False  # PyTorch's SGD steps complex parameters as they are

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: Any = None,
        differentiable: bool = False,
        fused: Any = None,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
            foreach=foreach,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        if group["maximize"]:
            grad = -grad
        wd, mom = group["weight_decay"], group["momentum"]
        if wd != 0:
            grad = fma_add(grad, p._d, wd)
        if mom != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = make(grad.copy(), False, None, 0)
            else:
                b = buf._d
                b *= b.dtype.type(mom)
                b[...] = fma_add(b, grad, 1 - group["dampening"])
            grad = fma_add(grad, buf._d, mom) if group["nesterov"] else buf._d
        p._d[...] = fma_add(p._d, grad, -group["lr"])
