"""Adam and AdamW (decoupled weight decay), with amsgrad and maximize."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.optim.optimizer import Array, Optimizer, buffer, fma, fma_add, step_count


def check_adam_args(lr: float, eps: float, betas: tuple[float, float], weight_decay: float) -> None:
    """PyTorch's argument checks shared by Adam and its variants."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _tensor_betas(betas: Any, foreach: Any, capturable: bool) -> Any:
    """Adam's betas: both floats or both 1-element tensors (kept 0-d), as PyTorch checks."""
    floats = all(isinstance(b, float) for b in betas)
    if not (floats or all(isinstance(b, Tensor) for b in betas)):
        raise ValueError("betas must be either both floats or both Tensors")
    if floats:
        return betas
    for i, b in enumerate(betas):
        if foreach and not capturable:
            raise ValueError(
                f"betas[{i}] as a Tensor is not supported for capturable=False and foreach=True"
            )
        if b.numel() != 1:
            raise ValueError(f"Tensor betas[{i}] must be 1-element")
    return tuple(b.squeeze() if b.ndim else b for b in betas)


def lerp_(a: Array, end: Array, weight: float) -> None:
    """a.lerp_(end, weight) as PyTorch's CPU kernel: a fused multiply-add on either side."""
    w = a.dtype.type(weight)
    diff = end - a
    if abs(weight) < 0.5:
        a[...] = fma(w, diff, a)
    else:
        a[...] = fma(w - a.dtype.type(1), diff, end)


class Adam(Optimizer):
    """Adam (Kingma & Ba); `decoupled_weight_decay=True` is AdamW."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: Any = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: Any = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if isinstance(lr, Tensor) and foreach and not capturable:
            raise ValueError(
                "lr as a Tensor is not supported for capturable=False and foreach=True"
            )
        check_adam_args(lr, eps, betas, weight_decay)
        betas = _tensor_betas(betas, foreach, capturable)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=decoupled_weight_decay,
        )
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        dt = p._d.dtype.type
        if group["maximize"]:
            grad = -grad
        beta1, beta2 = group["betas"]
        lr, wd = group["lr"], group["weight_decay"]
        step = step_count(state)
        exp_avg = buffer(state, "exp_avg", p._d)
        exp_avg_sq = buffer(state, "exp_avg_sq", p._d)
        max_sq = buffer(state, "max_exp_avg_sq", p._d) if group["amsgrad"] else None
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p._d *= dt(1 - lr * wd)
            else:
                grad = fma_add(grad, p._d, wd)
        lerp_(exp_avg, grad, 1 - beta1)
        exp_avg_sq *= dt(beta2)
        # addcmul_: self + (value * t1) * t2, the last multiply fused with the add
        exp_avg_sq[...] = fma(dt(1 - beta2) * grad, grad, exp_avg_sq)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        step_size = lr / bias_correction1
        bc2_sqrt = bias_correction2**0.5
        if max_sq is not None:
            np.maximum(max_sq, exp_avg_sq, out=max_sq)
            denom = np.sqrt(max_sq) / dt(bc2_sqrt) + dt(group["eps"])
        else:
            denom = np.sqrt(exp_avg_sq) / dt(bc2_sqrt) + dt(group["eps"])
        # addcdiv_: self + (value * t1) / t2
        p._d += (dt(-step_size) * exp_avg) / denom


class AdamW(Adam):
    """Adam with decoupled weight decay (default 1e-2)."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: Any = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: Any = None,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )
