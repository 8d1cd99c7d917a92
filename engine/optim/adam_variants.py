"""Adamax, NAdam and RAdam, as PyTorch's single-tensor loops compute them."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.optim.adam import check_adam_args, lerp_
from engine.optim.optimizer import Array, Optimizer, buffer, fma, fma_add, step_count


def _second_moment(exp_avg_sq: Array, grad: Array, beta2: float) -> None:
    """exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2), PyTorch's roundings."""
    dt = exp_avg_sq.dtype.type
    exp_avg_sq *= dt(beta2)
    exp_avg_sq[...] = fma(dt(1 - beta2) * grad, grad, exp_avg_sq)


class Adamax(Optimizer):
    """Adam with the infinity norm in place of the second moment."""

    def __init__(
        self,
        params: Any,
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: Any = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        dt = p._d.dtype.type
        grad = -grad if group["maximize"] else grad
        beta1, beta2 = group["betas"]
        step = step_count(state)
        exp_avg = buffer(state, "exp_avg", p._d)
        exp_inf = buffer(state, "exp_inf", p._d)
        if group["weight_decay"] != 0:
            grad = fma_add(grad, p._d, group["weight_decay"])
        lerp_(exp_avg, grad, 1 - beta1)
        exp_inf *= dt(beta2)
        np.maximum(exp_inf, np.abs(grad) + dt(group["eps"]), out=exp_inf)
        clr = group["lr"] / (1 - beta1**step)
        p._d += (dt(-clr) * exp_avg) / exp_inf


class NAdam(Optimizer):
    """Adam with Nesterov momentum (and the momentum-decay schedule)."""

    _capturable_tensors = "params, mu_products and state_steps"

    def __init__(
        self,
        params: Any,
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach: Any = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_adam_args(lr, eps, betas, weight_decay)
        if momentum_decay < 0.0:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            momentum_decay=momentum_decay,
            decoupled_weight_decay=decoupled_weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        dt = p._d.dtype.type
        grad = -grad if group["maximize"] else grad
        beta1, beta2 = group["betas"]
        lr, wd, md = group["lr"], group["weight_decay"], group["momentum_decay"]
        step = step_count(state)
        if "mu_product" not in state:
            state["mu_product"] = make(np.asarray(1.0, np.float32), False, None, 0)
        mu_product = state["mu_product"]._d
        exp_avg = buffer(state, "exp_avg", p._d)
        exp_avg_sq = buffer(state, "exp_avg_sq", p._d)
        bias_correction2 = 1 - beta2**step
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p._d *= dt(1 - lr * wd)
            else:
                grad = fma_add(grad, p._d, wd)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * md)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * md)))
        mu_product *= np.float32(mu)
        lerp_(exp_avg, grad, 1 - beta1)
        _second_moment(exp_avg_sq, grad, beta2)
        denom = np.sqrt(exp_avg_sq / dt(bias_correction2)) + dt(group["eps"])
        mp = float(mu_product)
        p._d += (dt(-lr * (1.0 - mu) / (1.0 - mp)) * grad) / denom
        p._d += (dt((-lr * mu_next) / (1.0 - mp * mu_next)) * exp_avg) / denom


class RAdam(Optimizer):
    """Adam with the variance of the adaptive rate rectified (plain momentum early on)."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: Any = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            decoupled_weight_decay=decoupled_weight_decay,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        dt = p._d.dtype.type
        grad = -grad if group["maximize"] else grad
        beta1, beta2 = group["betas"]
        lr, wd = group["lr"], group["weight_decay"]
        step = step_count(state)
        exp_avg = buffer(state, "exp_avg", p._d)
        exp_avg_sq = buffer(state, "exp_avg_sq", p._d)
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p._d *= dt(1 - lr * wd)
            else:
                grad = fma_add(grad, p._d, wd)
        lerp_(exp_avg, grad, 1 - beta1)
        _second_moment(exp_avg_sq, grad, beta2)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        corrected = exp_avg / dt(bias_correction1)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        if rho_t > 5.0:
            rect = (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            adaptive = dt(bias_correction2**0.5) / (np.sqrt(exp_avg_sq) + dt(group["eps"]))
            p._d -= corrected * dt(lr) * adaptive * dt(rect**0.5)
        else:
            p._d -= corrected * dt(lr)
