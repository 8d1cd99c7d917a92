"""The scheduler base class, `LRScheduler` (PyTorch's chainable form)."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any

from engine._warn import warn
from engine.optim.optimizer import Optimizer

_DOCS = "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
_OVERRIDDEN_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    f"`lr_scheduler.step()`. See more details at {_DOCS}"
)
_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
    "will result in PyTorch skipping the first value of the learning rate schedule. "
    f"See more details at {_DOCS}"
)
EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)
_GET_LR_WARNING = (
    "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."
)


def warn_get_lr_outside_step(scheduler: LRScheduler) -> None:
    """PyTorch's warning when `get_lr()` is called by hand: it computes the next step's lrs."""
    if not scheduler._get_lr_called_within_step:
        warn(_GET_LR_WARNING, UserWarning)


def _track_step_called(opt: Optimizer) -> None:
    """Wrap the optimizer's bound `step` so it notes that it ran (PyTorch's patch, per instance:
    a custom optimizer's own `step` is tracked too)."""
    if hasattr(opt.step, "_wrapped_by_lr_sched"):
        return
    ref = weakref.ref(opt)
    func: Callable[..., Any] = opt.step.__func__  # type: ignore[attr-defined]

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        o = ref()
        o._opt_called = True  # type: ignore[union-attr]
        return func.__get__(o, o.__class__)(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True  # type: ignore[attr-defined]
    opt.step = wrapper  # type: ignore[method-assign]


class LRScheduler:
    """Base: keeps `last_epoch`, writes each new lr into the optimizer's groups."""

    _get_lr_called_within_step = False

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
        _track_step_called(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        """Reset the step count and take the first step (in initial mode, as PyTorch)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The learning rates the last `step()` set."""
        return self._last_lr

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch and update every group's lr (warning, as PyTorch does, when the
        optimizer has not stepped before the scheduler's second step)."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warn(_OVERRIDDEN_WARNING, UserWarning)
            elif not getattr(self.optimizer, "_opt_called", False):
                warn(_ORDER_WARNING, UserWarning)
        self._step_count += 1
        if epoch is not None:
            warn(EPOCH_DEPRECATION_WARNING, UserWarning)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        """Move to the next epoch (or to `epoch`) and write the new lrs into the groups."""
        self._get_lr_called_within_step = True  # PyTorch keeps this flag in state_dict()
        if epoch is None:
            self.last_epoch += 1
            lrs = self.get_lr()
        else:  # an explicit epoch uses the closed form where the schedule has one
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            lrs = closed() if closed is not None else self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, lrs):
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
