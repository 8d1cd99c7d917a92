"""ReduceLROnPlateau: lower the lr when a metric stops improving."""

from __future__ import annotations

import math
from typing import Any

from engine._warn import warn
from engine.optim.lr_scheduler.base import EPOCH_DEPRECATION_WARNING
from engine.optim.optimizer import Optimizer


class ReduceLROnPlateau:
    """Reduce the lr by `factor` when a metric stops improving for `patience` epochs."""

    def __init__(
        self,
        optimizer: Optimizer,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: Any = 0,
        eps: float = 1e-8,
    ) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.optimizer, self.factor, self.patience = optimizer, factor, patience
        n = len(optimizer.param_groups)
        if isinstance(min_lr, list | tuple):
            if len(min_lr) != n:
                raise ValueError(f"expected {n} min_lrs, got {len(min_lr)}")
            self.default_min_lr: Any = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * n
        self.cooldown, self.eps = cooldown, eps
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.last_epoch = 0
        self._last_lr = [g["lr"] for g in optimizer.param_groups]
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def _is_better(self, a: float, best: float) -> bool:
        if self.mode == "min":
            return a < (
                best * (1.0 - self.threshold)
                if self.threshold_mode == "rel"
                else best - self.threshold
            )
        return a > (
            best * (self.threshold + 1.0) if self.threshold_mode == "rel" else best + self.threshold
        )

    def step(self, metrics: Any, epoch: int | None = None) -> None:
        """Record this epoch's metric; reduce the lr after `patience` bad epochs."""
        current = float(metrics)
        if epoch is not None:
            warn(EPOCH_DEPRECATION_WARNING, UserWarning)
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if self._is_better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._match_groups()
            for i, group in enumerate(self.optimizer.param_groups):
                old = float(group["lr"])
                new = max(old * self.factor, self.min_lrs[i])
                if old - new > self.eps:
                    group["lr"] = new
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def _match_groups(self) -> None:
        """One min_lr per param group, also for groups added since (a scalar min_lr only)."""
        n = len(self.optimizer.param_groups)
        if n == len(self.min_lrs):
            return
        if self.default_min_lr is None:
            raise RuntimeError(
                f"The number of param groups in the `optimizer` ({n}) differs from when "
                f"`ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due to a new "
                "param group being added to the optimizer. Please modify the `min_lrs` field to "
                "match the length of the `optimizer` param groups."
            )
        self.min_lrs = [self.default_min_lr] * n

    def get_last_lr(self) -> list[float]:
        return self._last_lr

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)
