"""The scheduler base class, `LRScheduler` (PyTorch's chainable form)."""

from __future__ import annotations

from typing import Any

from engine.optim.optimizer import Optimizer


class LRScheduler:
    """Base: keeps `last_epoch`, writes each new lr into the optimizer's groups."""

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        "resuming scheduler with last_epoch >= 0.\nThis typically happens when:"
                        "\n1. You're trying to resume training from a checkpoint but haven't "
                        "properly loaded the optimizer state\n2. You're using last_epoch >= 0 "
                        "for a fresh training run (not recommended)"
                    )
        self.base_lrs = [g["initial_lr"] for g in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self._is_initial = True
        self.step()
        self._is_initial = False

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The learning rates the last `step()` set."""
        return self._last_lr

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch and update every group's lr."""
        self._step_count += 1
        self.last_epoch += 1 if epoch is None else 0
        if epoch is not None:
            self.last_epoch = epoch
        self._get_lr_called_within_step = True  # PyTorch keeps this flag in state_dict()
        for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
            group["lr"] = lr
        self._get_lr_called_within_step = False
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)


_LRScheduler = LRScheduler


def _lrs(opt: Optimizer) -> list[float]:
    return [g["lr"] for g in opt.param_groups]
