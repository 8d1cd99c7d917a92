"""Warm-up and cyclic schedulers: ConstantLR, LinearLR, MultiplicativeLR, PolynomialLR,
CosineAnnealingWarmRestarts and OneCycleLR.

The update formulas are PyTorch's recursive ("chainable") ones, so the floats printed after
each step are the same as PyTorch's, not merely close.
"""

from __future__ import annotations

import math
from typing import Any

from engine.optim._schedulers_more import LambdaLR
from engine.optim.lr_scheduler import LRScheduler
from engine.optim.optimizer import Optimizer


def _lrs(opt: Optimizer) -> list[float]:
    return [g["lr"] for g in opt.param_groups]


class MultiplicativeLR(LambdaLR):
    """Multiply the lr by `lr_lambda(epoch)` at every step."""

    def get_lr(self) -> list[float]:
        if self._is_initial:
            return _lrs(self.optimizer)
        groups = self.optimizer.param_groups
        return [g["lr"] * f(self.last_epoch) for f, g in zip(self.lr_lambdas, groups)]


class ConstantLR(LRScheduler):
    """lr * factor until `total_iters`, then the base lr."""

    def __init__(
        self,
        optimizer: Optimizer,
        factor: float = 1.0 / 3,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0:
            return [lr * self.factor for lr in _lrs(self.optimizer)]
        if self.last_epoch != self.total_iters:
            return _lrs(self.optimizer)
        return [lr * (1.0 / self.factor) for lr in _lrs(self.optimizer)]


class LinearLR(LRScheduler):
    """Ramp the lr factor linearly from `start_factor` to `end_factor` over `total_iters`."""

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or "
                "equal to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in _lrs(self.optimizer)]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        s, e = self.start_factor, self.end_factor
        f = 1.0 + (e - s) / (self.total_iters * s + (self.last_epoch - 1) * (e - s))
        return [lr * f for lr in _lrs(self.optimizer)]


class PolynomialLR(LRScheduler):
    """Decay the lr as (1 - t / total_iters) ** power."""

    def __init__(
        self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1
    ) -> None:
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        t, n = self.last_epoch, self.total_iters
        decay = ((1.0 - t / n) / (1.0 - (t - 1) / n)) ** self.power
        return [lr * decay for lr in _lrs(self.optimizer)]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine decay restarted every T_i epochs (T_i grows by T_mult)."""

    def __init__(
        self,
        optimizer: Optimizer,
        T_0: int,
        T_mult: int = 1,
        eta_min: float = 0.0,
        last_epoch: int = -1,
    ) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur: float = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        cos = 1 + math.cos(math.pi * self.T_cur / self.T_i)
        return [self.eta_min + (b - self.eta_min) * cos / 2 for b in self.base_lrs]

    def step(self, epoch: Any = None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur, self.T_i = self.T_cur % self.T_i, self.T_i * self.T_mult
        else:
            self._seek(epoch)
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        for g, lr in zip(self.optimizer.param_groups, self.get_lr()):
            g["lr"] = lr
        self._get_lr_called_within_step = False
        self._last_lr = _lrs(self.optimizer)

    def _seek(self, epoch: float) -> None:
        if epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        if epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult**n


def _per_group(name: str, opt: Optimizer, value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        if len(value) != len(opt.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(value)} values, param_groups has {len(opt.param_groups)}."
            )
        return list(value)
    return [value] * len(opt.param_groups)


class OneCycleLR(LRScheduler):
    """The 1cycle policy: warm up to `max_lr`, then anneal far below the initial lr."""

    def __init__(
        self,
        optimizer: Optimizer,
        max_lr: Any,
        total_steps: int | None = None,
        epochs: int | None = None,
        steps_per_epoch: int | None = None,
        pct_start: float = 0.3,
        anneal_strategy: str = "cos",
        cycle_momentum: bool = True,
        base_momentum: Any = 0.85,
        max_momentum: Any = 0.95,
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        three_phase: bool = False,
        last_epoch: int = -1,
    ) -> None:
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        n = self.total_steps
        self._schedule_phases = _phases(pct_start, n, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._anneal_func_type = anneal_strategy
        if last_epoch == -1:
            for m, g in zip(_per_group("max_lr", optimizer, max_lr), optimizer.param_groups):
                g["initial_lr"] = m / div_factor
                g["max_lr"] = m
                g["min_lr"] = g["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self._init_momentum(optimizer, max_momentum, base_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    def _init_momentum(self, opt: Optimizer, mx: Any, base: Any, last_epoch: int) -> None:
        if "momentum" not in opt.defaults and "betas" not in opt.defaults:
            raise ValueError(
                "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
            )
        self.use_beta1 = "betas" in opt.defaults
        if last_epoch != -1:
            return
        mxs, bases = _per_group("max_momentum", opt, mx), _per_group("base_momentum", opt, base)
        for m, b, g in zip(mxs, bases, opt.param_groups):
            if self.use_beta1:
                g["betas"] = (m, *g["betas"][1:])
            else:
                g["momentum"] = m
            g["max_momentum"], g["base_momentum"] = m, b

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list[float]:
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(
                f"Tried to step {step} times. The specified number of total steps is "
                f"{self.total_steps}"
            )
        lrs = []
        for g in self.optimizer.param_groups:
            start = 0.0
            for i, ph in enumerate(self._schedule_phases):
                end = ph["end_step"]
                if step <= end or i == len(self._schedule_phases) - 1:
                    pct = (step - start) / (end - start)
                    lr = self._anneal(g[ph["start_lr"]], g[ph["end_lr"]], pct)
                    mom = self._anneal(g[ph["start_momentum"]], g[ph["end_momentum"]], pct)
                    break
                start = ph["end_step"]
            lrs.append(lr)
            if self.cycle_momentum:
                if self.use_beta1:
                    g["betas"] = (mom, *g["betas"][1:])
                else:
                    g["momentum"] = mom
        return lrs


def _phases(pct: float, n: int, three: bool) -> list[dict[str, Any]]:
    def ph(end: float, lr0: str, lr1: str, m0: str, m1: str) -> dict[str, Any]:
        return {
            "end_step": end,
            "start_lr": lr0,
            "end_lr": lr1,
            "start_momentum": m0,
            "end_momentum": m1,
        }

    up = ph(float(pct * n) - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum")
    if not three:
        return [up, ph(n - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]
    return [
        up,
        ph(float(2 * pct * n) - 2, "max_lr", "initial_lr", "base_momentum", "max_momentum"),
        ph(n - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"),
    ]


__all__ = [
    "ConstantLR",
    "CosineAnnealingWarmRestarts",
    "LinearLR",
    "MultiplicativeLR",
    "OneCycleLR",
    "PolynomialLR",
]
