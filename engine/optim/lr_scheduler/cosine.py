"""Cosine schedules: CosineAnnealingLR, CosineAnnealingWarmRestarts."""

from __future__ import annotations

import math
from typing import Any

from engine.optim.lr_scheduler.base import LRScheduler, _lrs, warn_get_lr_outside_step
from engine.optim.optimizer import Optimizer


class CosineAnnealingLR(LRScheduler):
    """Cosine decay from the base lr to `eta_min` over `T_max` epochs (then back up)."""

    def __init__(
        self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1
    ) -> None:
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        warn_get_lr_outside_step(self)
        groups = self.optimizer.param_groups
        t, eta = self.T_max, self.eta_min
        if self._is_initial:
            return [g["lr"] for g in groups]
        if self._step_count == 1 and self.last_epoch > 0:
            return [
                eta + (b - eta) * (1 + math.cos(self.last_epoch * math.pi / t)) / 2
                for b in self.base_lrs
            ]
        if (self.last_epoch - 1 - t) % (2 * t) == 0:
            return [
                g["lr"] + (b - eta) * (1 - math.cos(math.pi / t)) / 2
                for b, g in zip(self.base_lrs, groups)
            ]
        return [
            (1 + math.cos(math.pi * self.last_epoch / t))
            / (1 + math.cos(math.pi * (self.last_epoch - 1) / t))
            * (g["lr"] - eta)
            + eta
            for g in groups
        ]

    def _get_closed_form_lr(self) -> list[float]:
        cos = 1 + math.cos(math.pi * self.last_epoch / self.T_max)
        return [self.eta_min + (b - self.eta_min) * cos / 2 for b in self.base_lrs]


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
        warn_get_lr_outside_step(self)
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
