"""OneCycleLR (Smith's 1cycle policy)."""

from __future__ import annotations

import math
from typing import Any

from engine.optim.lr_scheduler.base import LRScheduler, warn_get_lr_outside_step
from engine.optim.optimizer import Optimizer


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
        warn_get_lr_outside_step(self)
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
