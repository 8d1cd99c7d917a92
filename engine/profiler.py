"""`torch.profiler`: the newer profiler API over the same op timings as `autograd.profiler`."""

from __future__ import annotations

import enum
import gzip
import os
import socket
import time
from collections.abc import Callable, Iterable
from typing import Any

from engine.autograd import profiler as _autograd_profiler
from engine.autograd.profiler import record_function

__all__ = [
    "ProfilerAction",
    "ProfilerActivity",
    "kineto_available",
    "profile",
    "record_function",
    "schedule",
    "supported_activities",
    "tensorboard_trace_handler",
]


class ProfilerActivity(enum.Enum):
    """Which devices to profile; the engine only has a CPU."""

    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3
    DEVICE_STOPPED = 4


def supported_activities() -> set[ProfilerActivity]:
    return {ProfilerActivity.CPU}


def kineto_available() -> bool:
    return False


def schedule(
    *,
    wait: int,
    warmup: int,
    active: int,
    repeat: int = 0,
    skip_first: int = 0,
    skip_first_wait: int = 0,
) -> Callable[[int], ProfilerAction]:
    """PyTorch's step schedule: skip_first, then cycles of wait, warmup, active steps."""

    def schedule_fn(step: int) -> ProfilerAction:
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        cycle = wait + warmup + active
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        mod = step % cycle
        if mod < wait:
            return ProfilerAction.NONE
        if mod < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if mod < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


class profile(_autograd_profiler.profile):
    """`torch.profiler.profile(activities=[ProfilerActivity.CPU])`.

    With a `schedule`, each `step()` is a "ProfilerStep#N" range; events of NONE/WARMUP steps
    are dropped, and `on_trace_ready` runs after each RECORD_AND_SAVE step and on exit.
    """

    def __init__(
        self,
        *,
        activities: Iterable[Any] | None = None,
        schedule: Callable[[int], ProfilerAction] | None = None,
        on_trace_ready: Callable[..., Any] | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        experimental_config: Any = None,
        execution_trace_observer: Any = None,
        acc_events: bool = False,
        use_cuda: bool | None = None,
        custom_trace_id_callback: Any = None,
        post_processing_timeout_s: float | None = None,
    ) -> None:
        super().__init__(
            record_shapes=record_shapes, profile_memory=profile_memory, with_stack=with_stack
        )
        self.activities = set(activities) if activities else supported_activities()
        self.schedule = schedule
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self._step_range: record_function | None = None

    def _action(self) -> ProfilerAction:
        return ProfilerAction.RECORD if self.schedule is None else self.schedule(self.step_num)

    def _open_step(self) -> None:
        if self.schedule is not None:
            self._step_range = record_function(f"ProfilerStep#{self.step_num}")
            self._step_range.__enter__()

    def _close_step(self) -> None:
        if self._step_range is not None:
            self._step_range.__exit__(None, None, None)
            self._step_range = None

    def __enter__(self) -> profile:
        super().__enter__()
        self._open_step()
        return self

    def start(self) -> None:
        self.__enter__()

    def stop(self) -> None:
        self.__exit__(None, None, None)

    def step(self) -> None:
        """End the current step; PyTorch's schedule decides what is kept and when it is saved."""
        self._close_step()
        prev = self._action()
        self.step_num += 1
        now = self._action()
        if prev == ProfilerAction.RECORD_AND_SAVE:
            self.function_events = self._cycle()
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)
        elif prev in (ProfilerAction.NONE, ProfilerAction.WARMUP) and now in (
            ProfilerAction.RECORD,
            ProfilerAction.RECORD_AND_SAVE,
        ):
            self._cycle()  # what ran before recording started is not reported
        self._open_step()

    def __exit__(self, *exc: object) -> None:
        self._close_step()
        recording = self._action() in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
        super().__exit__(*exc)
        if self.on_trace_ready is not None and recording:
            self.on_trace_ready(self)


def tensorboard_trace_handler(
    dir_name: str,
    worker_name: str | None = None,
    use_gzip: bool = False,
    use_python_export: bool = False,
) -> Callable[[profile], None]:
    """An `on_trace_ready` that writes each trace as `<worker>.<ns>.pt.trace.json` in dir_name."""

    def handler(prof: profile) -> None:
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        suffix = ".pt.trace.json.gz" if use_gzip else ".pt.trace.json"
        path = os.path.join(dir_name, f"{worker}.{time.time_ns()}{suffix}")
        prof.export_chrome_trace(path)
        if use_gzip:
            with open(path, "rb") as f:
                data = f.read()
            with gzip.open(path, "wb") as g:
                g.write(data)

    return handler
