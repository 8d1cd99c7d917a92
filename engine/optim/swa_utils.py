"""`torch.optim.swa_utils`: stochastic weight averaging and EMA of a model's parameters
(`AveragedModel`), the SWA learning-rate schedule (`SWALR`) and recomputing BatchNorm
statistics for the averaged weights (`update_bn`).

>>> swa_model = AveragedModel(model)
>>> swa_model.update_parameters(model)  # after each epoch of the SWA phase
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Iterable
from typing import Any

from engine._tensor import Tensor
from engine.autograd.grad_mode import no_grad
from engine.nn.modules.module import Module
from engine.optim.lr_scheduler.base import LRScheduler
from engine.optim.lr_scheduler.one_cycle import _per_group
from engine.optim.optimizer import Optimizer

AvgFn = Callable[[Tensor, Tensor, Any], Tensor]
MultiAvgFn = Callable[[list[Tensor], list[Tensor], Any], None]


def get_swa_avg_fn() -> AvgFn:
    """The running mean: averaged + (current - averaged) / (n + 1)."""

    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        step: Tensor = (current_param - averaged_param) / (num_averaged + 1)
        return averaged_param + step

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> AvgFn:
    """The exponential moving average: decay * ema + (1 - decay) * current."""

    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_multi_avg_fn() -> MultiAvgFn:
    """The running mean, written into each averaged tensor in place."""

    def swa_update(averaged: list[Tensor], current: list[Tensor], num_averaged: Any) -> None:
        for a, c in zip(averaged, current, strict=True):
            a.copy_(a + (c - a) / (num_averaged + 1))

    return swa_update


def get_ema_multi_avg_fn(decay: float = 0.999) -> MultiAvgFn:
    """The exponential moving average, in place (a lerp towards the current values)."""

    def ema_update(ema: list[Tensor], current: list[Tensor], num_averaged: Any) -> None:
        for e, c in zip(ema, current, strict=True):
            if e.is_floating_point() or e.is_complex():
                e.lerp_(c, 1 - decay)
            else:
                e.copy_(e * decay + c * (1 - decay))

    return ema_update


class AveragedModel(Module):
    """A copy of `model` whose parameters (and buffers, with `use_buffers`) are the average of
    the model's over the `update_parameters` calls: the equal-weight mean by default, or
    `avg_fn` / `multi_avg_fn` (an EMA, say). `n_averaged` counts the updates."""

    n_averaged: Tensor

    def __init__(
        self,
        model: Module,
        device: Any = None,
        avg_fn: AvgFn | None = None,
        multi_avg_fn: MultiAvgFn | None = None,
        use_buffers: bool = False,
    ) -> None:
        from engine import _dtype
        from engine._from_data import tensor

        super().__init__()
        assert avg_fn is None or multi_avg_fn is None, (
            "Only one of avg_fn and multi_avg_fn should be provided"
        )
        self.module = copy.deepcopy(model)
        self.register_buffer("n_averaged", tensor(0, dtype=_dtype.int64))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Fold `model`'s current values into the average (copied on the first call)."""
        own = (
            itertools.chain(self.module.parameters(), self.module.buffers())
            if self.use_buffers
            else self.parameters()
        )
        theirs = (
            itertools.chain(model.parameters(), model.buffers())
            if self.use_buffers
            else model.parameters()
        )
        averaged, current = [], []
        first = int(self.n_averaged) == 0
        for a, c in zip(own, theirs):
            averaged.append(a.detach())
            current.append(c.detach())
            if first:
                a.detach().copy_(c.detach())
        if not first:
            with no_grad():
                if self.multi_avg_fn is not None:
                    self.multi_avg_fn(averaged, current, self.n_averaged)
                else:
                    fn = self.avg_fn or get_swa_avg_fn()
                    for a, c in zip(averaged, current, strict=True):
                        a.copy_(fn(a, c, self.n_averaged))
        if not self.use_buffers:  # the buffers follow the model's
            for b_own, b_model in zip(self.module.buffers(), model.buffers()):
                b_own.detach().copy_(b_model.detach())
        self.n_averaged += 1


def update_bn(loader: Iterable[Any], model: Module, device: Any = None) -> None:
    """Recompute every BatchNorm's running statistics over one pass of `loader` (the
    cumulative average of its batches), then restore the model's mode and momenta."""
    from engine.nn.modules.batchnorm import _BatchNorm

    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for batch in loader:
        if isinstance(batch, list | tuple):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's lr to `swa_lr` over `anneal_epochs` steps ('cos' or 'linear'),
    then holds it."""

    def __init__(
        self,
        optimizer: Optimizer,
        swa_lr: Any,
        anneal_epochs: int = 10,
        anneal_strategy: str = "cos",
        last_epoch: int = -1,
    ) -> None:
        for lr, group in zip(_per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        return swa_lr if alpha == 1 else (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[float]:
        # the lr before annealing is recovered from the current one, then annealed one step on
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        groups = self.optimizer.param_groups
        prev = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, prev)]
